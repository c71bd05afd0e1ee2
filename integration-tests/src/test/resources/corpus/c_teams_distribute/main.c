/* target teams distribute parallel for: saxpy and a checksum reduction. */
#include <stdio.h>

#define N (1 << 16)
static float x[N], y[N];

int main(void) {
  for (int i = 0; i < N; i++) {
    x[i] = (float)(i % 100);
    y[i] = (float)(i % 7);
  }
  const float a = 2.0f;
#pragma omp target teams distribute parallel for map(to : x) map(tofrom : y)
  for (int i = 0; i < N; i++) y[i] = a * x[i] + y[i];
  long check = 0;
#pragma omp target teams distribute parallel for map(to : y) reduction(+ : check)
  for (int i = 0; i < N; i++) check += (long)y[i];
  printf("saxpy checksum=%ld y[12345]=%.1f\n", check, y[12345]);
  return 0;
}
