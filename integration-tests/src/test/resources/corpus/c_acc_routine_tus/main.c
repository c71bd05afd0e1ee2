/* OpenACC compute regions calling routines from another translation unit. */
#include <stdio.h>
#include "device.h"

#define ROWS 16
#define COLS 128

int main(void) {
  static int grid[ROWS][COLS];
  long sum = 0;
#pragma acc parallel num_gangs(16) vector_length(32) copyout(grid)
#pragma acc loop gang
  for (int r = 0; r < ROWS; r++) fill_row(grid[r], COLS, r * 1000);
#pragma acc parallel loop reduction(+ : sum) copyin(grid)
  for (int r = 0; r < ROWS; r++)
    for (int c = 0; c < COLS; c++) sum += grid[r][c];
  int one = 0;
#pragma acc serial copyout(one)
  one = mix(1);
  printf("grid sum=%ld mix1=%d\n", sum, one);
  return 0;
}
