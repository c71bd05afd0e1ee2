/* Archive member with a target region and a device global. */
#pragma omp declare target
int lib_bias = 7;
#pragma omp end declare target

long lib_sum_squares(int n) {
  long s = 0;
#pragma omp target teams distribute parallel for reduction(+ : s) map(tofrom : s)
  for (int i = 0; i < n; i++) s += (long)i * i + lib_bias;
  return s;
}
