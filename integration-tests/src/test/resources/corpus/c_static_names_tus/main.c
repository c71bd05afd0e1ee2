/* Target regions in units whose device statics share names (see names_a.c). */
#include <stdio.h>

int run_a(int n);
int run_b(int n);
int run_c(void);

int main(void) {
  printf("a=%d b=%d c=%d\n", run_a(10), run_b(10), run_c());
  return 0;
}
