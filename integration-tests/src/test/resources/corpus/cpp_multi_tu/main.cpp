// C++ over three translation units: namespaced device globals, functions, target regions.
#include <cstdio>

#include "shared.hpp"

int main() {
  double d = physics::simulate(40);
#pragma omp target update from(physics::steps)
  double g = 0;
#pragma omp target map(from : g)
  g = physics::gravity * 2;
  std::printf("distance=%.3f steps=%d g2=%.2f\n", d, physics::steps, g);
  return 0;
}
