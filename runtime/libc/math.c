/* math.h functions that are plain computation over the modeled ones. */
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
