/* Statics named like those of names_b.c: the whole-program accel compiler renames both pairs
   (compute._omp_fn.0.lto_priv.N, cnt.lto_priv.N); compiled apart they would clash. */
#pragma omp declare target
static int cnt = 3;
__attribute__((noinline)) static int helper(int x) { return x * 3 + cnt; }
int shared_fn(int x);
#pragma omp end declare target

static int compute(int n) {
  int r = 0;
#pragma omp target map(tofrom : r)
  for (int i = 0; i < n; i++) r += helper(i) + shared_fn(i);
  return r;
}

int run_a(int n) { return compute(n); }
