/* math.h functions that are plain computation over the modeled ones. */
#include <fenv.h>
#include <math.h>

#define WEAK __attribute__((weak))

/* modf splits x into its integral part (*iptr) and its fractional part,
 * both with x's sign: modf(-3.0) is -0.0, modf(inf) is 0 with *iptr inf,
 * a NaN gives NaNs. trunc and copysign are the interpreter's. */
WEAK double modf(double x, double *iptr) {
	double i = trunc(x);
	*iptr = i;
	if (isinf(x))
		return copysign(0.0, x);
	return copysign(x - i, x);
}

WEAK float modff(float x, float *iptr) {
	float i = truncf(x);
	*iptr = i;
	if (isinf(x))
		return copysignf(0.0f, x);
	return copysignf(x - i, x);
}

/* The long double variants: the machine holds a long double as a double
 * (with double's 53-bit precision, not the x87's 64), so each is its
 * double function. */
WEAK long double modfl(long double x, long double *iptr) {
	double i;
	double f = modf((double)x, &i);
	*iptr = i;
	return f;
}
WEAK long double ldexpl(long double x, int e) { return ldexp((double)x, e); }
WEAK long double frexpl(long double x, int *e) { return frexp((double)x, e); }
WEAK long double scalbnl(long double x, int e) { return ldexp((double)x, e); }

/* The float variants and scalbn (ldexp with FLT_RADIX 2), over the double
 * ones: every float is a double, exactly. */
WEAK float ldexpf(float x, int e) { return (float)ldexp(x, e); }
WEAK float frexpf(float x, int *e) { return (float)frexp(x, e); }
WEAK double scalbn(double x, int e) { return ldexp(x, e); }
WEAK float scalbnf(float x, int e) { return (float)ldexp(x, e); }

/* A quiet NaN. glibc reads the tag's digits into the payload; augur's NaN
 * has none, which printf and every comparison cannot tell apart. */
WEAK double nan(const char *tag) { return __builtin_nan(""); }
WEAK float nanf(const char *tag) { return __builtin_nanf(""); }
WEAK long double nanl(const char *tag) { return __builtin_nan(""); }

/* The floating-point environment: augur computes in round-to-nearest and
 * does not track exception flags, so that mode is the only one a program
 * can set (another is refused, as fesetround refuses a mode the machine
 * lacks), and no flag is ever raised. */
WEAK int fegetround(void) { return FE_TONEAREST; }
WEAK int fesetround(int mode) { return mode == FE_TONEAREST ? 0 : -1; }
WEAK int feclearexcept(int excepts) { return 0; }
WEAK int fetestexcept(int excepts) { return 0; }
WEAK int feraiseexcept(int excepts) { return excepts == 0 ? 0 : -1; }

/* The functions of two results, over the modeled ones. */
WEAK void sincos(double x, double *s, double *c) {
	*s = sin(x);
	*c = cos(x);
}
WEAK void sincosf(float x, float *s, float *c) {
	*s = sinf(x);
	*c = cosf(x);
}
WEAK void sincosl(long double x, long double *s, long double *c) {
	*s = sinl(x);
	*c = cosl(x);
}

/* lgamma_r's sign is that of the gamma function: negative between each
 * odd negative integer and the even one above it, and for -0; at the
 * poles (zero and the negative integers) glibc says positive but for -0. */
static int gammaSign(double x) {
	if (x == 0)
		return signbit(x) ? -1 : 1;
	if (x > 0 || x != x || x == floor(x))
		return 1;
	return fmod(floor(x), 2) != 0 ? -1 : 1;
}
WEAK double lgamma_r(double x, int *sign) {
	*sign = gammaSign(x);
	return lgamma(x);
}
WEAK float lgammaf_r(float x, int *sign) {
	*sign = gammaSign(x);
	return lgammaf(x);
}
WEAK long double lgammal_r(long double x, int *sign) {
	*sign = gammaSign((double)x);
	return lgammal(x);
}

/* remquo: the remainder, and the low three bits of the quotient rounded
 * to nearest with its sign, as glibc keeps them: taken from x modulo 8y,
 * which fmod computes exactly. */
WEAK double remquo(double x, double y, int *quo) {
	double r = remainder(x, y);
	*quo = 0;
	if (y == 0 || x != x || y != y || x - x != 0)
		return r;
	double ay = fabs(y), m = fabs(x);
	if (ay < 0x1p1020)
		m = fmod(m, 8 * ay);
	int q = (int)lround((m - remainder(m, ay)) / ay) & 7; /* ties go even, as for x: 8 is even */
	*quo = signbit(x) != signbit(y) ? -q : q;
	return r;
}
WEAK float remquof(float x, float y, int *quo) { return (float)remquo(x, y, quo); }
WEAK long double remquol(long double x, long double y, int *quo) { return remquo((double)x, (double)y, quo); }

/* scalbln is scalbn with a long exponent, clamped: past an int's range the
 * result is the same overflow or underflow. */
WEAK double scalbln(double x, long e) { return ldexp(x, e > 100000 ? 100000 : e < -100000 ? -100000 : (int)e); }
WEAK float scalblnf(float x, long e) { return (float)scalbln(x, e); }
WEAK long double scalblnl(long double x, long e) { return scalbln((double)x, e); }
