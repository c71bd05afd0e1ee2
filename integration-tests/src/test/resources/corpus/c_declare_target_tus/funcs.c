/* Device functions in a second translation unit, reading the globals of the first. */
#include "shared.h"

#pragma omp declare target
int poly(int x) { return 3 * x * x + 2 * x + table[x % TABLE_SIZE]; }
double scaled(int x) { return scale * poly(x); }
#pragma omp end declare target
