// C++: function templates, a class with member functions and a functor used on the device.
#include <cstdio>

#pragma omp declare target
template <typename T>
T clamp_to(T v, T lo, T hi) {
  return v < lo ? lo : (v > hi ? hi : v);
}

struct Accumulator {
  long total = 0;
  int count = 0;
  void add(long v) {
    total += v;
    count++;
  }
  long mean() const { return count ? total / count : 0; }
};
#pragma omp end declare target

template <typename T>
T device_clamped_sum(const T *v, int n, T lo, T hi) {
  T s = 0;
#pragma omp target teams distribute parallel for map(to : v[0 : n]) reduction(+ : s)
  for (int i = 0; i < n; i++) s += clamp_to(v[i], lo, hi);
  return s;
}

int main() {
  int ints[300];
  double dbls[300];
  for (int i = 0; i < 300; i++) {
    ints[i] = i - 150;
    dbls[i] = (i - 150) * 0.5;
  }
  Accumulator acc;
#pragma omp target map(tofrom : acc)
  for (int i = 1; i <= 10; i++) acc.add(i * i);
  std::printf("ints=%d dbls=%.1f mean=%ld count=%d\n", device_clamped_sum(ints, 300, -100, 100),
              device_clamped_sum(dbls, 300, -10.0, 10.0), acc.mean(), acc.count);
  return 0;
}
