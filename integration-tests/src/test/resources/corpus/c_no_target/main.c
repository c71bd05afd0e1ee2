/* -fopenmp but no target constructs: nothing is offloaded, nothing is registered. */
#include <stdio.h>

int main(void) {
  long sum = 0;
#pragma omp parallel for reduction(+ : sum)
  for (int i = 1; i <= 100000; i++) sum += i % 97;
  printf("host only sum=%ld\n", sum);
  return 0;
}
