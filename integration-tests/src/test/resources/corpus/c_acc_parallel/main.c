/* OpenACC parallel with explicit gang/worker/vector sizes (recorded as launch dims). */
#include <stdio.h>

#define N 10000
static double a[N], b[N];

int main(void) {
  for (int i = 0; i < N; i++) a[i] = i % 13;
  double sum = 0;
#pragma acc parallel num_gangs(32) num_workers(4) vector_length(32) copyin(a) copyout(b)
#pragma acc loop gang worker vector
  for (int i = 0; i < N; i++) b[i] = 2 * a[i] + 1;
#pragma acc parallel loop num_gangs(8) vector_length(64) reduction(+ : sum) copyin(b)
  for (int i = 0; i < N; i++) sum += b[i];
  int gangs_seen = 0;
#pragma acc parallel num_gangs(1) copy(gangs_seen)
  gangs_seen = 1;
  printf("sum=%.0f b[77]=%.0f once=%d\n", sum, b[77], gangs_seen);
  return 0;
}
