/* Target regions calling declare-target functions and globals defined in two other TUs. */
#include <stdio.h>
#include "shared.h"

int main(void) {
  for (int i = 0; i < TABLE_SIZE; i++) table[i] = i * 10;
#pragma omp target update to(table)
  long total = 0;
  double fsum = 0;
#pragma omp target map(tofrom : total, fsum)
  {
    for (int i = 0; i < 100; i++) {
      total += poly(i);
      fsum += scaled(i);
    }
    table[0] = -1;
  }
#pragma omp target update from(table)
  printf("total=%ld fsum=%.1f table0=%d\n", total, fsum, table[0]);
  return 0;
}
