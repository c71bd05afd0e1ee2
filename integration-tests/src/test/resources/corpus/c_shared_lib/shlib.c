/* A shared library with its own offload image (registered by its own constructor). */
#pragma omp declare target
double shlib_weights[8] = {1, 2, 3, 4, 5, 6, 7, 8};
#pragma omp end declare target

double shlib_dot(const double *v, int n) {
  double s = 0;
#pragma omp target teams distribute parallel for map(to : v[0 : n]) reduction(+ : s)
  for (int i = 0; i < n; i++) s += v[i] * shlib_weights[i % 8];
  return s;
}

int shlib_fill(int *out, int n) {
#pragma omp target map(from : out[0 : n])
  for (int i = 0; i < n; i++) out[i] = i * 3;
  return n;
}
