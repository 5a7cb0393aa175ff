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

/* The floating-point environment: augur computes in round-to-nearest and
 * does not track exception flags, so that mode is the only one a program
 * can set (another is refused, as fesetround refuses a mode the machine
 * lacks), and no flag is ever raised. */
WEAK int fegetround(void) { return FE_TONEAREST; }
WEAK int fesetround(int mode) { return mode == FE_TONEAREST ? 0 : -1; }
WEAK int feclearexcept(int excepts) { return 0; }
WEAK int fetestexcept(int excepts) { return 0; }
WEAK int feraiseexcept(int excepts) { return excepts == 0 ? 0 : -1; }
