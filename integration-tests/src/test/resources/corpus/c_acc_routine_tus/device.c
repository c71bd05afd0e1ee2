/* OpenACC routines and a declare'd global in a second translation unit. */
#include "device.h"

int acc_offset = 100;

#pragma acc routine seq
int mix(int x) { return (x * 31 + acc_offset) % 1009; }

#pragma acc routine vector
void fill_row(int *row, int n, int seed) {
#pragma acc loop vector
  for (int i = 0; i < n; i++) row[i] = mix(seed + i);
}
