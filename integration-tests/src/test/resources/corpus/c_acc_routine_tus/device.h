extern int acc_offset;
#pragma acc declare copyin(acc_offset)
#pragma acc routine seq
int mix(int x);
#pragma acc routine vector
void fill_row(int *row, int n, int seed);
