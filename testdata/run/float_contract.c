// clang contracts a*b+c into llvm.fmuladd, which the compiler may compute
// fused or not; x86-64 code built without FMA multiplies, rounds, adds and
// rounds again, and augur must print what that code prints. Each case is
// chosen so the fused result differs in the last bits.
#include <stdio.h>

static double mad(double a, double b, double c) { return a * b + c; }
static float madf(float a, float b, float c) { return a * b + c; }

int main(void) {
	volatile double x = 0.1, ten = 10, minus_one = -1;
	printf("%.17g\n", mad(x, ten, minus_one));
	volatile double third = 1.0 / 3;
	printf("%.17g\n", mad(third, 3, -1));
	volatile float xf = 0.1f, tenf = 10, mf = -1;
	printf("%.9g\n", madf(xf, tenf, mf));
	double acc = 0;
	for (int i = 1; i <= 1000; i++)
		acc = acc * 0.999 + 1.0 / i;
	printf("%.17g\n", acc);
	return 0;
}
