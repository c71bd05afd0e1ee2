// A C++ shared library whose offload image registers from the library's constructor.
#pragma omp declare target
static int lib_scale = 3;
#pragma omp end declare target

namespace vec {
long scaled_sum(const int *v, int n) {
  long s = 0;
#pragma omp target teams distribute parallel for map(to : v[0 : n]) reduction(+ : s)
  for (int i = 0; i < n; i++) s += static_cast<long>(v[i]) * lib_scale;
  return s;
}
}  // namespace vec
