/* Second archive member: a declare-target function and a target region using it. */
#pragma omp declare target
static int collatz_steps(long v) {
  int steps = 0;
  while (v != 1) {
    v = (v % 2) ? 3 * v + 1 : v / 2;
    steps++;
  }
  return steps;
}
#pragma omp end declare target

int lib_max_collatz(int n) {
  int best = 0;
#pragma omp target teams distribute parallel for reduction(max : best)
  for (int i = 1; i <= n; i++) {
    int s = collatz_steps(i);
    best = s > best ? s : best;
  }
  return best;
}
