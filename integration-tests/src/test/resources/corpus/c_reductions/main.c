/* Reductions of every kind inside offloaded loops. */
#include <stdio.h>

int main(void) {
  enum { N = 4096 };
  long sum = 0;
  double prod = 1.0;
  int maxv = -1, minv = 1 << 30, all = 1, any = 0;
  unsigned bits_or = 0, bits_xor = 0, bits_and = ~0u;
#pragma omp target teams distribute parallel for reduction(+ : sum) reduction(max : maxv) \
    reduction(min : minv)
  for (int i = 0; i < N; i++) {
    int v = (i * 37) % 1001;
    sum += v;
    maxv = v > maxv ? v : maxv;
    minv = v < minv ? v : minv;
  }
#pragma omp target teams distribute parallel for reduction(* : prod) reduction(&& : all) \
    reduction(|| : any)
  for (int i = 0; i < 20; i++) {
    prod *= 1.0 + (i % 3);
    all = all && (i < 100);
    any = any || (i == 13);
  }
#pragma omp target parallel for reduction(| : bits_or) reduction(^ : bits_xor) \
    reduction(& : bits_and)
  for (int i = 0; i < 32; i++) {
    bits_or |= 1u << (i % 16);
    bits_xor ^= (unsigned)i * 2654435761u;
    bits_and &= ~(1u << (i % 8)) | 0xff00u;
  }
  printf("sum=%ld max=%d min=%d prod=%.0f all=%d any=%d or=%#x xor=%#x and=%#x\n", sum, maxv,
         minv, prod, all, any, bits_or, bits_xor, bits_and);
  return 0;
}
