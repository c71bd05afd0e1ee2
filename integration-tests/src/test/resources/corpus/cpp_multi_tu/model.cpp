// A declare-target function and a target region in a second translation unit.
#include "shared.hpp"

namespace physics {
#pragma omp declare target
double fall(double t) { return 0.5 * gravity * t * t; }
#pragma omp end declare target

double simulate(int n) {
  double d = 0;
#pragma omp target map(tofrom : d)
  {
    for (int i = 0; i < n; i++) d += fall(i * 0.25);
    steps += n;
  }
  return d;
}
}  // namespace physics
