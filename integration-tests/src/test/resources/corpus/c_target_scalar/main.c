/* A plain OpenMP target region mapping scalars and an array. */
#include <stdio.h>

int main(void) {
  int answer = 0;
  long squares[16];
#pragma omp target map(tofrom : answer) map(from : squares)
  {
    answer = 6 * 7;
    for (int i = 0; i < 16; i++) squares[i] = (long)i * i;
  }
  long sum = 0;
  for (int i = 0; i < 16; i++) sum += squares[i];
  printf("answer=%d sum=%ld\n", answer, sum);
  return 0;
}
