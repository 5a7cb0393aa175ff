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
