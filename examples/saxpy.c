/* saxpy with OpenMP target offloading: the demo program scripts/demo.sh links through offlink. */
#include <omp.h>
#include <stdio.h>

#define N 1048576
static float x[N], y[N];

#pragma omp declare target
static float scale(float a) { return 2.0f * a; }
#pragma omp end declare target

int main(void) {
  for (int i = 0; i < N; i++) {
    x[i] = (float) i;
    y[i] = 1.0f;
  }
  float a = 0.5f;
#pragma omp target teams distribute parallel for map(to : x) map(tofrom : y)
  for (int i = 0; i < N; i++)
    y[i] = scale(a) * x[i] + y[i];
  double sum = 0;
  for (int i = 0; i < N; i++)
    sum += y[i];
  printf("saxpy: sum = %.0f (expected %.0f); %d offload device(s) found%s\n", sum,
         (double) N * (N - 1) / 2 + N, omp_get_num_devices(),
         omp_get_num_devices() ? "" : ", ran on the host");
  return sum == (double) N * (N - 1) / 2 + N ? 0 : 1;
}
