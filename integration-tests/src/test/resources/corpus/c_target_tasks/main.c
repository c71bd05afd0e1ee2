/* Asynchronous target regions (nowait, depend) and firstprivate/private data. */
#include <stdio.h>

int main(void) {
  int a = 0, b = 0, c = 0;
  int base = 10;
#pragma omp parallel
#pragma omp single
  {
#pragma omp target map(tofrom : a) firstprivate(base) nowait depend(out : a)
    a = base + 1;
#pragma omp target map(tofrom : b) nowait depend(out : b)
    b = 20;
#pragma omp target map(tofrom : a, b, c) nowait depend(in : a, b) depend(out : c)
    c = a * b;
#pragma omp taskwait
  }
  int scratch = 99;
#pragma omp target private(scratch) map(tofrom : a)
  {
    scratch = 3;
    a += scratch;
  }
  printf("a=%d b=%d c=%d scratch=%d\n", a, b, c, scratch);
  return 0;
}
