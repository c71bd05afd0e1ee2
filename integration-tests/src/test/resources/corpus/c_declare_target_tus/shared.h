#define TABLE_SIZE 64
#pragma omp declare target
extern int table[TABLE_SIZE];
extern double scale;
int poly(int x);
double scaled(int x);
#pragma omp end declare target
