/* An executable with a target region, linked against a shared library that has its own. */
#include <stdio.h>

double shlib_dot(const double *v, int n);
int shlib_fill(int *out, int n);

int main(void) {
  double v[100];
  for (int i = 0; i < 100; i++) v[i] = i * 0.5;
  int filled[50];
  shlib_fill(filled, 50);
  long mine = 0;
#pragma omp target map(tofrom : mine)
  for (int i = 0; i < 10; i++) mine += i;
  printf("dot=%.1f filled49=%d mine=%ld\n", shlib_dot(v, 100), filled[49], mine);
  return 0;
}
