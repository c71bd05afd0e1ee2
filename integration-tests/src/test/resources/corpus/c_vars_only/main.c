/* Only declare-target data and data-movement directives: an image with no kernels. */
#include <stdio.h>

#pragma omp declare target
int counters[4] = {1, 2, 3, 4};
double ratio = 0.25;
#pragma omp end declare target

int main(void) {
  counters[2] = 30;
#pragma omp target update to(counters)
#pragma omp target update from(counters, ratio)
  printf("counters=%d,%d,%d,%d ratio=%.2f\n", counters[0], counters[1], counters[2], counters[3],
         ratio);
  return 0;
}
