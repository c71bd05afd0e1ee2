/* An archive member nothing references: it must not be linked, so its kernel is not registered. */
int lib_unused(void) {
  int r = 0;
#pragma omp target map(from : r)
  r = 99;
  return r;
}
