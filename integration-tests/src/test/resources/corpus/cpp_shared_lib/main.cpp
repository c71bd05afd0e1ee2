// An executable without target regions of its own, using a C++ shared library that has them.
#include <cstdio>

namespace vec {
long scaled_sum(const int *v, int n);
}

int main() {
  int v[64];
  for (int i = 0; i < 64; i++) v[i] = i;
  std::printf("scaled=%ld\n", vec::scaled_sum(v, 64));
  return 0;
}
