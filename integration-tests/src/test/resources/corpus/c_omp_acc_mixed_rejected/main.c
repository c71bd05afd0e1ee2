/* OpenMP target and OpenACC compute constructs in one program (-fopenmp -fopenacc). GCC 12's
   mkoffload refuses the link ("either -fopenacc or -fopenmp must be set"); a drop-in must too. */
#include <stdio.h>

int main(void) {
  enum { N = 512 };
  static int v[N];
  long omp_sum = 0, acc_sum = 0;
#pragma omp target teams distribute parallel for map(from : v)
  for (int i = 0; i < N; i++) v[i] = i * 2;
#pragma omp target teams distribute parallel for map(to : v) reduction(+ : omp_sum)
  for (int i = 0; i < N; i++) omp_sum += v[i];
#pragma acc parallel loop num_gangs(4) num_workers(2) vector_length(32) copyin(v) \
    reduction(+ : acc_sum)
  for (int i = 0; i < N; i++) acc_sum += v[i] + 1;
  printf("omp=%ld acc=%ld\n", omp_sum, acc_sum);
  return 0;
}
