/* Map clauses: to/from/tofrom/alloc, array sections, target data, enter/exit data, update. */
#include <stdio.h>
#include <stdlib.h>

int main(void) {
  enum { N = 1000 };
  int *in = malloc(N * sizeof *in), *out = malloc(N * sizeof *out);
  int *tmp = malloc(N * sizeof *tmp);
  for (int i = 0; i < N; i++) in[i] = i;
#pragma omp target data map(to : in[0 : N]) map(from : out[0 : N]) map(alloc : tmp[0 : N])
  {
#pragma omp target
    for (int i = 0; i < N; i++) tmp[i] = in[i] * 2;
#pragma omp target
    for (int i = 0; i < N; i++) out[i] = tmp[i] + 1;
  }
  long acc = 0;
  int counter = 5;
#pragma omp target enter data map(to : counter)
#pragma omp target map(tofrom : acc)
  {
    counter += 10;
    acc = counter;
  }
#pragma omp target exit data map(from : counter)
  in[0] = 1000;
#pragma omp target enter data map(to : in[0 : N])
#pragma omp target update to(in[0 : 1])
  int first = 0;
#pragma omp target map(from : first)
  first = in[0];
#pragma omp target exit data map(delete : in[0 : N])
  long sum = 0;
  for (int i = 0; i < N; i++) sum += out[i];
  printf("sum=%ld counter=%d acc=%ld first=%d\n", sum, counter, acc, first);
  free(in);
  free(out);
  free(tmp);
  return 0;
}
