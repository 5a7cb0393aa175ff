/* Floating-point arithmetic and conversions. */
#include <math.h>
#include <stdio.h>

int main(void) {
	double d = 1.0 / 3.0;
	float f = 1.0f / 3.0f;
	printf("%.17g %.9g\n", d, f);
	printf("%f %f %f\n", d * 3, (double)f * 3, 0.1 + 0.2);
	printf("conv %d %d %u %lld\n", (int)2.9, (int)-2.9, (unsigned)3e9, (long long)-1e15);
	printf("back %f %f\n", (double)(1LL << 53), (double)18446744073709551615ULL);
	double z = 0.0;
	printf("special %f %f %f\n", 1.0 / z, -1.0 / z, sqrt(-1.0) * 0 + 1.0 / z - 1.0 / z);
	printf("math %.6f %.6f %.6f %.6f\n", sqrt(2.0), pow(2.0, 0.5), floor(-2.5), ceil(-2.5));
	printf("math2 %.6f %.6f %.6f %.6f\n", fabs(-3.25), fmod(7.5, 2.0), exp(1.0), log(10.0));
	printf("trig %.6f %.6f %.6f\n", sin(0.5), cos(0.5), atan2(1.0, 2.0));
	printf("cmp %d %d %d\n", d < 0.5, f == 1.0f / 3.0f, z == -z);
	float acc = 0;
	for (int i = 1; i <= 100; i++)
		acc += 1.0f / (float)i;
	printf("harmonic %.7f\n", acc);
	double r = 12345.678;
	printf("round %ld %.2f %.0f\n", lround(r), round(r * 100) / 100, rint(2.5));
	/* Library calls of doubles on values known only at run time (the
	 * interpreter runs these without its general call path). */
	double s = 0;
	for (int i = -2; i <= 40; i++) {
		double x = i;
		s += sqrt(x * x + 1) + pow(1.01, x) + fmin(x, 25.0) + hypot(x, 3.0) + atan2(x, 7.0) + exp(x / 40);
	}
	printf("calls %.9f %f %f\n", s, sqrt(s - s - 1), log(s - s));
	return 0;
}
