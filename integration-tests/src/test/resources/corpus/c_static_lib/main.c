/* Links offloaded code from a static archive (ar rcs) plus a target region of its own. */
#include <stdio.h>

long lib_sum_squares(int n);
int lib_max_collatz(int n);

int main(void) {
  int local = 0;
#pragma omp target map(from : local)
  local = 123;
  printf("squares=%ld collatz=%d local=%d\n", lib_sum_squares(1000), lib_max_collatz(10000),
         local);
  return 0;
}
