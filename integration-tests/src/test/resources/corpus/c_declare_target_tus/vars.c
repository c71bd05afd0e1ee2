/* Device globals in their own translation unit. */
#include "shared.h"

#pragma omp declare target
int table[TABLE_SIZE];
double scale = 1.5;
#pragma omp end declare target
