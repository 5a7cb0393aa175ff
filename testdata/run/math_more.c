/* The libm functions beyond the common ones that numeric code calls:
 * lgamma and its reentrant form with the sign, nextafter and nexttoward
 * (a float's next float, not a double's), fma, lrint, ilogb and logb,
 * exp10, significand, sincos, remquo's quotient bits, the Bessel
 * functions, scalbln, drem, and the function forms of finite, isinf
 * (which says which infinity) and isnan. The output must be native's. */
#define _GNU_SOURCE
#include <math.h>
#include <stdio.h>
int main(void) {
	volatile double x = 12.5, neg = -2.5, z = 0.0;
	int s, q;
	printf("lgamma %.6f %.6f %.6f\n", lgamma(5.0), lgamma(0.5), lgamma(neg));
	printf("lgamma_r %.6f %d %.6f %d %.6f %d %.6f %d\n", lgamma_r(neg, &s), s, lgamma_r(-1.5, &q), q, lgamma_r(3.0, &s), s, lgamma_r(-z, &q), q);
	printf("lgammaf %.4f\n", lgammaf(4.5f));
	printf("nextafter %a %a %a %a\n", nextafter(1.0, 2.0), nextafterf(1.0f, 2.0f), nextafter(0.0, -1.0), nexttowardf(1.0f, 0.0L));
	printf("fma %g %g\n", fma(x, 2, 1), fmaf(1.5f, 2.0f, 0.25f));
	printf("lrint %ld %ld %lld %ld\n", lrint(2.5), lrint(3.5), llrint(-2.5), lrintf(1.5f));
	printf("ilogb %d %d %d %d\n", ilogb(x), ilogb(0.0), ilogb(INFINITY), ilogb(NAN));
	printf("logb %g %g exp10 %g significand %g\n", logb(x), logb(0.1), exp10(3.0), significand(x));
	double sn, cs; sincos(0.5, &sn, &cs); printf("sincos %.6f %.6f\n", sn, cs);
	float sf, cf; sincosf(0.5f, &sf, &cf); printf("sincosf %.6f %.6f\n", sf, cf);
	printf("remquo %g %d ", remquo(10.0, 3.0, &q), q); printf("%g %d ", remquo(-29.0, 3.0, &q), q); printf("%g %d ", remquo(7.5, 2.0, &q), q); printf("%g %d\n", remquo(1e10 + 1, -7.0, &q), q);
	printf("bessel %.6f %.6f %.6f %.6f %.6f\n", j0(1.0), j1(1.0), jn(2, 1.0), y0(1.0), yn(2, 1.0));
	printf("scalbln %g drem %g\n", scalbln(1.5, 10L), drem(10.0, 3.0));
	printf("finite %d %d isinf %d %d isnan %d\n", finite(x), finite(INFINITY), isinf(-INFINITY), isinf(INFINITY), isnan(NAN));
	return 0;
}
