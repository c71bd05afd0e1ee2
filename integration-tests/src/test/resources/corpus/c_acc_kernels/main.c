/* OpenACC kernels regions inside a data region. */
#include <stdio.h>

#define N 2048

int main(void) {
  static int m[N], n[N];
  long total = 0;
  for (int i = 0; i < N; i++) m[i] = i;
#pragma acc data copyin(m) create(n) copy(total)
  {
#pragma acc kernels
    {
      for (int i = 0; i < N; i++) n[i] = m[i] * m[i] % 1000;
    }
#pragma acc kernels
    {
      for (int i = 0; i < N; i++) total += n[i];
    }
  }
  printf("kernels total=%ld\n", total);
  return 0;
}
