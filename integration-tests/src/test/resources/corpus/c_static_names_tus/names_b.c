/* The same static names as names_a.c, other values. */
#pragma omp declare target
static int cnt = 5;
__attribute__((noinline)) static int helper(int x) { return x * 5 - cnt; }
#pragma omp end declare target

static int compute(int n) {
  int r = 0;
#pragma omp target map(tofrom : r)
  for (int i = 0; i < n; i++) r += helper(i);
  return r;
}

int run_b(int n) { return compute(n); }
