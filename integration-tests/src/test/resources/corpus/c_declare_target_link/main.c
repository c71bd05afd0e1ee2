/* declare target link: the host table marks the variable with the size's top bit. */
#include <stdio.h>
int big[1024];
#pragma omp declare target link(big)
#pragma omp declare target
int plain = 5;
#pragma omp end declare target
int main(void) {
  for (int i = 0; i < 1024; i++) big[i] = i;
  long s = 0;
#pragma omp target map(to : big) map(tofrom : s)
  for (int i = 0; i < 1024; i++) s += big[i];
  long t = 0;
#pragma omp target map(tofrom : t)
  t = plain;
  printf("link sum=%ld %ld\n", s, t);
  return 0;
}
