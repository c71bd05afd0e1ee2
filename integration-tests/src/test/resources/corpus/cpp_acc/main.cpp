// C++ with OpenACC: a templated parallel loop with explicit launch sizes.
#include <cstdio>

template <typename T>
T acc_sum_of_products(const T *a, const T *b, int n) {
  T s = 0;
#pragma acc parallel loop num_gangs(32) num_workers(4) vector_length(32) copyin(a[0 : n], b[0 : n]) \
    reduction(+ : s)
  for (int i = 0; i < n; i++) s += a[i] * b[i];
  return s;
}

int main() {
  const int n = 1000;
  static long la[n], lb[n];
  static float fa[n], fb[n];
  for (int i = 0; i < n; i++) {
    la[i] = i;
    lb[i] = i % 10;
    fa[i] = 0.5f;
    fb[i] = (float)(i % 4);
  }
  std::printf("long=%ld float=%.1f\n", acc_sum_of_products(la, lb, n),
              (double)acc_sum_of_products(fa, fb, n));
  return 0;
}
