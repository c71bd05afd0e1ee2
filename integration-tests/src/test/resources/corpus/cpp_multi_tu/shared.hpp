#pragma once
namespace physics {
#pragma omp declare target
extern double gravity;
extern int steps;
double fall(double t);
#pragma omp end declare target
double simulate(int n);
}  // namespace physics
