/* A declare target function and variable used from names_a.c's target region. */
#pragma omp declare target
int gvar = 7;
int shared_fn(int x) { return x + gvar; }
#pragma omp end declare target

int run_c(void) {
  int r = 0;
#pragma omp target map(tofrom : r)
  r = shared_fn(1) * 2;
  return r;
}
