#include <stdio.h>
#pragma omp requires unified_shared_memory
int main (void)
{
  int a[8];
  for (int i = 0; i < 8; i++) a[i] = i;
  #pragma omp target teams distribute parallel for
  for (int i = 0; i < 8; i++) a[i] *= 3;
  printf ("%d\n", a[7]);
  return 0;
}
