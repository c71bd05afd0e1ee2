/* A large-ish image: 64 target regions and 16 declare-target globals. */
#include <stdio.h>

#pragma omp declare target
long g0 = 0;
long g1 = 11;
long g2 = 22;
long g3 = 33;
long g4 = 44;
long g5 = 55;
long g6 = 66;
long g7 = 77;
long g8 = 88;
long g9 = 99;
long g10 = 110;
long g11 = 121;
long g12 = 132;
long g13 = 143;
long g14 = 154;
long g15 = 165;
#pragma omp end declare target

static long kernel0(int n) {
  long s = 0;
#pragma omp target teams distribute parallel for reduction(+ : s)
  for (int i = 0; i < n; i++) s += (i ^ 0) + g0;
  return s;
}

static long kernel1(int n) {
  long s = 0;
#pragma omp target teams distribute parallel for reduction(+ : s)
  for (int i = 0; i < n; i++) s += (i ^ 1) + g1;
  return s;
}

static long kernel2(int n) {
  long s = 0;
#pragma omp target teams distribute parallel for reduction(+ : s)
  for (int i = 0; i < n; i++) s += (i ^ 2) + g2;
  return s;
}

static long kernel3(int n) {
  long s = 0;
#pragma omp target teams distribute parallel for reduction(+ : s)
  for (int i = 0; i < n; i++) s += (i ^ 3) + g3;
  return s;
}

static long kernel4(int n) {
  long s = 0;
#pragma omp target teams distribute parallel for reduction(+ : s)
  for (int i = 0; i < n; i++) s += (i ^ 4) + g4;
  return s;
}

static long kernel5(int n) {
  long s = 0;
#pragma omp target teams distribute parallel for reduction(+ : s)
  for (int i = 0; i < n; i++) s += (i ^ 5) + g5;
  return s;
}

static long kernel6(int n) {
  long s = 0;
#pragma omp target teams distribute parallel for reduction(+ : s)
  for (int i = 0; i < n; i++) s += (i ^ 6) + g6;
  return s;
}

static long kernel7(int n) {
  long s = 0;
#pragma omp target teams distribute parallel for reduction(+ : s)
  for (int i = 0; i < n; i++) s += (i ^ 7) + g7;
  return s;
}

static long kernel8(int n) {
  long s = 0;
#pragma omp target teams distribute parallel for reduction(+ : s)
  for (int i = 0; i < n; i++) s += (i ^ 8) + g8;
  return s;
}

static long kernel9(int n) {
  long s = 0;
#pragma omp target teams distribute parallel for reduction(+ : s)
  for (int i = 0; i < n; i++) s += (i ^ 9) + g9;
  return s;
}

static long kernel10(int n) {
  long s = 0;
#pragma omp target teams distribute parallel for reduction(+ : s)
  for (int i = 0; i < n; i++) s += (i ^ 10) + g10;
  return s;
}

static long kernel11(int n) {
  long s = 0;
#pragma omp target teams distribute parallel for reduction(+ : s)
  for (int i = 0; i < n; i++) s += (i ^ 11) + g11;
  return s;
}

static long kernel12(int n) {
  long s = 0;
#pragma omp target teams distribute parallel for reduction(+ : s)
  for (int i = 0; i < n; i++) s += (i ^ 12) + g12;
  return s;
}

static long kernel13(int n) {
  long s = 0;
#pragma omp target teams distribute parallel for reduction(+ : s)
  for (int i = 0; i < n; i++) s += (i ^ 13) + g13;
  return s;
}

static long kernel14(int n) {
  long s = 0;
#pragma omp target teams distribute parallel for reduction(+ : s)
  for (int i = 0; i < n; i++) s += (i ^ 14) + g14;
  return s;
}

static long kernel15(int n) {
  long s = 0;
#pragma omp target teams distribute parallel for reduction(+ : s)
  for (int i = 0; i < n; i++) s += (i ^ 15) + g15;
  return s;
}

static long kernel16(int n) {
  long s = 0;
#pragma omp target teams distribute parallel for reduction(+ : s)
  for (int i = 0; i < n; i++) s += (i ^ 16) + g0;
  return s;
}

static long kernel17(int n) {
  long s = 0;
#pragma omp target teams distribute parallel for reduction(+ : s)
  for (int i = 0; i < n; i++) s += (i ^ 17) + g1;
  return s;
}

static long kernel18(int n) {
  long s = 0;
#pragma omp target teams distribute parallel for reduction(+ : s)
  for (int i = 0; i < n; i++) s += (i ^ 18) + g2;
  return s;
}

static long kernel19(int n) {
  long s = 0;
#pragma omp target teams distribute parallel for reduction(+ : s)
  for (int i = 0; i < n; i++) s += (i ^ 19) + g3;
  return s;
}

static long kernel20(int n) {
  long s = 0;
#pragma omp target teams distribute parallel for reduction(+ : s)
  for (int i = 0; i < n; i++) s += (i ^ 20) + g4;
  return s;
}

static long kernel21(int n) {
  long s = 0;
#pragma omp target teams distribute parallel for reduction(+ : s)
  for (int i = 0; i < n; i++) s += (i ^ 21) + g5;
  return s;
}

static long kernel22(int n) {
  long s = 0;
#pragma omp target teams distribute parallel for reduction(+ : s)
  for (int i = 0; i < n; i++) s += (i ^ 22) + g6;
  return s;
}

static long kernel23(int n) {
  long s = 0;
#pragma omp target teams distribute parallel for reduction(+ : s)
  for (int i = 0; i < n; i++) s += (i ^ 23) + g7;
  return s;
}

static long kernel24(int n) {
  long s = 0;
#pragma omp target teams distribute parallel for reduction(+ : s)
  for (int i = 0; i < n; i++) s += (i ^ 24) + g8;
  return s;
}

static long kernel25(int n) {
  long s = 0;
#pragma omp target teams distribute parallel for reduction(+ : s)
  for (int i = 0; i < n; i++) s += (i ^ 25) + g9;
  return s;
}

static long kernel26(int n) {
  long s = 0;
#pragma omp target teams distribute parallel for reduction(+ : s)
  for (int i = 0; i < n; i++) s += (i ^ 26) + g10;
  return s;
}

static long kernel27(int n) {
  long s = 0;
#pragma omp target teams distribute parallel for reduction(+ : s)
  for (int i = 0; i < n; i++) s += (i ^ 27) + g11;
  return s;
}

static long kernel28(int n) {
  long s = 0;
#pragma omp target teams distribute parallel for reduction(+ : s)
  for (int i = 0; i < n; i++) s += (i ^ 28) + g12;
  return s;
}

static long kernel29(int n) {
  long s = 0;
#pragma omp target teams distribute parallel for reduction(+ : s)
  for (int i = 0; i < n; i++) s += (i ^ 29) + g13;
  return s;
}

static long kernel30(int n) {
  long s = 0;
#pragma omp target teams distribute parallel for reduction(+ : s)
  for (int i = 0; i < n; i++) s += (i ^ 30) + g14;
  return s;
}

static long kernel31(int n) {
  long s = 0;
#pragma omp target teams distribute parallel for reduction(+ : s)
  for (int i = 0; i < n; i++) s += (i ^ 31) + g15;
  return s;
}

static long kernel32(int n) {
  long s = 0;
#pragma omp target teams distribute parallel for reduction(+ : s)
  for (int i = 0; i < n; i++) s += (i ^ 32) + g0;
  return s;
}

static long kernel33(int n) {
  long s = 0;
#pragma omp target teams distribute parallel for reduction(+ : s)
  for (int i = 0; i < n; i++) s += (i ^ 33) + g1;
  return s;
}

static long kernel34(int n) {
  long s = 0;
#pragma omp target teams distribute parallel for reduction(+ : s)
  for (int i = 0; i < n; i++) s += (i ^ 34) + g2;
  return s;
}

static long kernel35(int n) {
  long s = 0;
#pragma omp target teams distribute parallel for reduction(+ : s)
  for (int i = 0; i < n; i++) s += (i ^ 35) + g3;
  return s;
}

static long kernel36(int n) {
  long s = 0;
#pragma omp target teams distribute parallel for reduction(+ : s)
  for (int i = 0; i < n; i++) s += (i ^ 36) + g4;
  return s;
}

static long kernel37(int n) {
  long s = 0;
#pragma omp target teams distribute parallel for reduction(+ : s)
  for (int i = 0; i < n; i++) s += (i ^ 37) + g5;
  return s;
}

static long kernel38(int n) {
  long s = 0;
#pragma omp target teams distribute parallel for reduction(+ : s)
  for (int i = 0; i < n; i++) s += (i ^ 38) + g6;
  return s;
}

static long kernel39(int n) {
  long s = 0;
#pragma omp target teams distribute parallel for reduction(+ : s)
  for (int i = 0; i < n; i++) s += (i ^ 39) + g7;
  return s;
}

static long kernel40(int n) {
  long s = 0;
#pragma omp target teams distribute parallel for reduction(+ : s)
  for (int i = 0; i < n; i++) s += (i ^ 40) + g8;
  return s;
}

static long kernel41(int n) {
  long s = 0;
#pragma omp target teams distribute parallel for reduction(+ : s)
  for (int i = 0; i < n; i++) s += (i ^ 41) + g9;
  return s;
}

static long kernel42(int n) {
  long s = 0;
#pragma omp target teams distribute parallel for reduction(+ : s)
  for (int i = 0; i < n; i++) s += (i ^ 42) + g10;
  return s;
}

static long kernel43(int n) {
  long s = 0;
#pragma omp target teams distribute parallel for reduction(+ : s)
  for (int i = 0; i < n; i++) s += (i ^ 43) + g11;
  return s;
}

static long kernel44(int n) {
  long s = 0;
#pragma omp target teams distribute parallel for reduction(+ : s)
  for (int i = 0; i < n; i++) s += (i ^ 44) + g12;
  return s;
}

static long kernel45(int n) {
  long s = 0;
#pragma omp target teams distribute parallel for reduction(+ : s)
  for (int i = 0; i < n; i++) s += (i ^ 45) + g13;
  return s;
}

static long kernel46(int n) {
  long s = 0;
#pragma omp target teams distribute parallel for reduction(+ : s)
  for (int i = 0; i < n; i++) s += (i ^ 46) + g14;
  return s;
}

static long kernel47(int n) {
  long s = 0;
#pragma omp target teams distribute parallel for reduction(+ : s)
  for (int i = 0; i < n; i++) s += (i ^ 47) + g15;
  return s;
}

static long kernel48(int n) {
  long s = 0;
#pragma omp target teams distribute parallel for reduction(+ : s)
  for (int i = 0; i < n; i++) s += (i ^ 48) + g0;
  return s;
}

static long kernel49(int n) {
  long s = 0;
#pragma omp target teams distribute parallel for reduction(+ : s)
  for (int i = 0; i < n; i++) s += (i ^ 49) + g1;
  return s;
}

static long kernel50(int n) {
  long s = 0;
#pragma omp target teams distribute parallel for reduction(+ : s)
  for (int i = 0; i < n; i++) s += (i ^ 50) + g2;
  return s;
}

static long kernel51(int n) {
  long s = 0;
#pragma omp target teams distribute parallel for reduction(+ : s)
  for (int i = 0; i < n; i++) s += (i ^ 51) + g3;
  return s;
}

static long kernel52(int n) {
  long s = 0;
#pragma omp target teams distribute parallel for reduction(+ : s)
  for (int i = 0; i < n; i++) s += (i ^ 52) + g4;
  return s;
}

static long kernel53(int n) {
  long s = 0;
#pragma omp target teams distribute parallel for reduction(+ : s)
  for (int i = 0; i < n; i++) s += (i ^ 53) + g5;
  return s;
}

static long kernel54(int n) {
  long s = 0;
#pragma omp target teams distribute parallel for reduction(+ : s)
  for (int i = 0; i < n; i++) s += (i ^ 54) + g6;
  return s;
}

static long kernel55(int n) {
  long s = 0;
#pragma omp target teams distribute parallel for reduction(+ : s)
  for (int i = 0; i < n; i++) s += (i ^ 55) + g7;
  return s;
}

static long kernel56(int n) {
  long s = 0;
#pragma omp target teams distribute parallel for reduction(+ : s)
  for (int i = 0; i < n; i++) s += (i ^ 56) + g8;
  return s;
}

static long kernel57(int n) {
  long s = 0;
#pragma omp target teams distribute parallel for reduction(+ : s)
  for (int i = 0; i < n; i++) s += (i ^ 57) + g9;
  return s;
}

static long kernel58(int n) {
  long s = 0;
#pragma omp target teams distribute parallel for reduction(+ : s)
  for (int i = 0; i < n; i++) s += (i ^ 58) + g10;
  return s;
}

static long kernel59(int n) {
  long s = 0;
#pragma omp target teams distribute parallel for reduction(+ : s)
  for (int i = 0; i < n; i++) s += (i ^ 59) + g11;
  return s;
}

static long kernel60(int n) {
  long s = 0;
#pragma omp target teams distribute parallel for reduction(+ : s)
  for (int i = 0; i < n; i++) s += (i ^ 60) + g12;
  return s;
}

static long kernel61(int n) {
  long s = 0;
#pragma omp target teams distribute parallel for reduction(+ : s)
  for (int i = 0; i < n; i++) s += (i ^ 61) + g13;
  return s;
}

static long kernel62(int n) {
  long s = 0;
#pragma omp target teams distribute parallel for reduction(+ : s)
  for (int i = 0; i < n; i++) s += (i ^ 62) + g14;
  return s;
}

static long kernel63(int n) {
  long s = 0;
#pragma omp target teams distribute parallel for reduction(+ : s)
  for (int i = 0; i < n; i++) s += (i ^ 63) + g15;
  return s;
}

int main(void) {
  long total = 0;
  total += kernel0(100);
  total += kernel1(101);
  total += kernel2(102);
  total += kernel3(103);
  total += kernel4(104);
  total += kernel5(105);
  total += kernel6(106);
  total += kernel7(107);
  total += kernel8(108);
  total += kernel9(109);
  total += kernel10(110);
  total += kernel11(111);
  total += kernel12(112);
  total += kernel13(113);
  total += kernel14(114);
  total += kernel15(115);
  total += kernel16(116);
  total += kernel17(117);
  total += kernel18(118);
  total += kernel19(119);
  total += kernel20(120);
  total += kernel21(121);
  total += kernel22(122);
  total += kernel23(123);
  total += kernel24(124);
  total += kernel25(125);
  total += kernel26(126);
  total += kernel27(127);
  total += kernel28(128);
  total += kernel29(129);
  total += kernel30(130);
  total += kernel31(131);
  total += kernel32(132);
  total += kernel33(133);
  total += kernel34(134);
  total += kernel35(135);
  total += kernel36(136);
  total += kernel37(137);
  total += kernel38(138);
  total += kernel39(139);
  total += kernel40(140);
  total += kernel41(141);
  total += kernel42(142);
  total += kernel43(143);
  total += kernel44(144);
  total += kernel45(145);
  total += kernel46(146);
  total += kernel47(147);
  total += kernel48(148);
  total += kernel49(149);
  total += kernel50(150);
  total += kernel51(151);
  total += kernel52(152);
  total += kernel53(153);
  total += kernel54(154);
  total += kernel55(155);
  total += kernel56(156);
  total += kernel57(157);
  total += kernel58(158);
  total += kernel59(159);
  total += kernel60(160);
  total += kernel61(161);
  total += kernel62(162);
  total += kernel63(163);
  printf("kernels=64 total=%ld\n", total);
  return 0;
}
