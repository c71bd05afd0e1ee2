#include <stdio.h>
#pragma omp requires reverse_offload
int gv[4] = {0, 1, 2, 3};
#pragma omp declare target enter(gv)
int twice (int x) { return 2 * x; }
#ifdef INDIRECT
#pragma omp declare target indirect enter(twice)
#else
#pragma omp declare target enter(twice)
#endif
int main (void)
{
  int r = 0;
  int (*fp) (int) = twice;
  #pragma omp target map(tofrom: r) map(to: fp)
  r = fp (20) + gv[1];
  printf ("%d\n", r);
  return r == 41 ? 0 : 1;
}
