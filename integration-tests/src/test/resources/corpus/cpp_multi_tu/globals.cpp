// Device globals in a namespace, in their own translation unit.
#include "shared.hpp"

namespace physics {
#pragma omp declare target
double gravity = 9.75;
int steps = 0;
#pragma omp end declare target
}  // namespace physics
