/* <complex.h> for double and long double complex numbers, and the
 * multiplication and division helpers clang calls for them (__muldc3 when
 * an inline product is NaN in both parts, __divdc3 for every quotient).
 * The float and long double forms compute in double (augur's long double
 * is one: libc.md) and round the result. x86-64 passes a float complex
 * as a vector (<2 x float>), which augur holds as its two floats.
 *
 * The formulas are the textbook ones over the modeled real functions,
 * with C11 Annex G's treatment of infinities in products and quotients;
 * results may differ from glibc's and libgcc's in the last bits and in
 * the signs of NaNs. */
#include <complex.h>
#include <float.h>
#include <math.h>

#define WEAK __attribute__((weak))

/* glibc's <complex.h> defines CMPLX only for GCC; clang has the builtin. */
#undef CMPLX
#undef CMPLXL
#define CMPLX(x, y) __builtin_complex((double)(x), (double)(y))
#define CMPLXL(x, y) __builtin_complex((long double)(x), (long double)(y))
#define CMPLXF(x, y) __builtin_complex((float)(x), (float)(y))

/* boxInf makes the parts of an operand with an infinite part 1 where
 * infinite and 0 elsewhere, keeping their signs; zeroNaN makes a NaN part
 * a zero of its sign. Annex G recomputes with them. */
static void boxInf(double *x, double *y) {
	*x = copysign(isinf(*x) ? 1.0 : 0.0, *x);
	*y = copysign(isinf(*y) ? 1.0 : 0.0, *y);
}
static void zeroNaN(double *x) {
	if (isnan(*x))
		*x = copysign(0.0, *x);
}

/* Annex G.5.1: a product whose parts are both NaN is recomputed when an
 * operand is infinite (or a partial product overflowed), so that an
 * infinite times a finite non-zero number is infinite. */
WEAK double complex __muldc3(double a, double b, double c, double d) {
	double ac = a * c, bd = b * d, ad = a * d, bc = b * c;
	double x = ac - bd, y = ad + bc;
	if (isnan(x) && isnan(y)) {
		int again = 0;
		if (isinf(a) || isinf(b)) {
			boxInf(&a, &b);
			zeroNaN(&c);
			zeroNaN(&d);
			again = 1;
		}
		if (isinf(c) || isinf(d)) {
			boxInf(&c, &d);
			zeroNaN(&a);
			zeroNaN(&b);
			again = 1;
		}
		if (!again && (isinf(ac) || isinf(bd) || isinf(ad) || isinf(bc))) {
			zeroNaN(&a);
			zeroNaN(&b);
			zeroNaN(&c);
			zeroNaN(&d);
			again = 1;
		}
		if (again) {
			x = INFINITY * (a * c - b * d);
			y = INFINITY * (a * d + b * c);
		}
	}
	return CMPLX(x, y);
}

/* Division by Smith's method: divide by the larger part of the divisor
 * first, so that no intermediate product overflows or underflows where
 * the quotient does not (operands near the top of the range are halved
 * first, which a quotient does not see); then Annex G.5.1's recovery of
 * the infinities and zeros that came out as NaN in both parts. */
WEAK double complex __divdc3(double a, double b, double c, double d) {
	double na = a, nb = b, nc = c, nd = d; /* as given, for the recovery */
	if (fmax(fabs(c), fabs(d)) >= DBL_MAX / 2) {
		a /= 2;
		b /= 2;
		c /= 2;
		d /= 2;
	}
	double x, y;
	if (fabs(c) < fabs(d)) {
		double r = c / d, den = c * r + d;
		x = (a * r + b) / den;
		y = (b * r - a) / den;
	} else {
		double r = d / c, den = d * r + c;
		x = (b * r + a) / den;
		y = (b - a * r) / den;
	}
	a = na, b = nb, c = nc, d = nd;
	if (isnan(x) && isnan(y)) {
		if (c == 0.0 && d == 0.0 && (!isnan(a) || !isnan(b))) {
			x = copysign(INFINITY, c) * a;
			y = copysign(INFINITY, c) * b;
		} else if ((isinf(a) || isinf(b)) && isfinite(c) && isfinite(d)) {
			boxInf(&a, &b);
			x = INFINITY * (a * c + b * d);
			y = INFINITY * (b * c - a * d);
		} else if ((isinf(c) || isinf(d)) && isfinite(a) && isfinite(b)) {
			boxInf(&c, &d);
			x = 0.0 * (a * c + b * d);
			y = 0.0 * (b * c - a * d);
		}
	}
	return CMPLX(x, y);
}

WEAK long double complex __mulxc3(long double a, long double b, long double c, long double d) {
	double complex z = __muldc3((double)a, (double)b, (double)c, (double)d);
	return CMPLXL(creal(z), cimag(z));
}
WEAK long double complex __divxc3(long double a, long double b, long double c, long double d) {
	double complex z = __divdc3((double)a, (double)b, (double)c, (double)d);
	return CMPLXL(creal(z), cimag(z));
}

WEAK float complex __mulsc3(float a, float b, float c, float d) {
	double complex z = __muldc3(a, b, c, d);
	return CMPLXF(creal(z), cimag(z));
}
WEAK float complex __divsc3(float a, float b, float c, float d) {
	double complex z = __divdc3(a, b, c, d);
	return CMPLXF(creal(z), cimag(z));
}

/* mul spells the products the functions below need through __muldc3,
 * so that none depends on how this file is compiled. */
static double complex mul(double complex x, double complex y) {
	return __muldc3(creal(x), cimag(x), creal(y), cimag(y));
}

WEAK double creal(double complex z) { return __real__ z; }
WEAK double cimag(double complex z) { return __imag__ z; }
WEAK double cabs(double complex z) { return hypot(creal(z), cimag(z)); }
WEAK double carg(double complex z) { return atan2(cimag(z), creal(z)); }
WEAK double complex conj(double complex z) { return CMPLX(creal(z), -cimag(z)); }
WEAK double complex cproj(double complex z) {
	if (isinf(creal(z)) || isinf(cimag(z)))
		return CMPLX(INFINITY, copysign(0.0, cimag(z)));
	return z;
}

WEAK double complex cexp(double complex z) {
	double x = creal(z), y = cimag(z);
	if (y == 0)
		return CMPLX(exp(x), y);
	double r = exp(x);
	return CMPLX(r * cos(y), r * sin(y));
}
WEAK double complex clog(double complex z) { return CMPLX(log(cabs(z)), carg(z)); }

/* The principal square root, its real part non-negative, its imaginary
 * part of the sign of z's (the cut along the negative reals). */
WEAK double complex csqrt(double complex z) {
	double x = creal(z), y = cimag(z);
	if (x == 0 && y == 0)
		return CMPLX(0.0, y);
	if (isinf(y))
		return CMPLX(INFINITY, y);
	if (isnan(x))
		return CMPLX(x, y - y);
	if (isinf(x)) {
		if (signbit(x))
			return CMPLX(isnan(y) ? y : 0.0, copysign(INFINITY, y));
		return CMPLX(x, isnan(y) ? y : copysign(0.0, y));
	}
	double t = sqrt((fabs(x) + hypot(x, y)) / 2);
	if (x >= 0)
		return CMPLX(t, y / (2 * t));
	return CMPLX(fabs(y) / (2 * t), copysign(t, y));
}

WEAK double complex cpow(double complex x, double complex y) { return cexp(mul(y, clog(x))); }

WEAK double complex csinh(double complex z) {
	double x = creal(z), y = cimag(z);
	return CMPLX(sinh(x) * cos(y), cosh(x) * sin(y));
}
WEAK double complex ccosh(double complex z) {
	double x = creal(z), y = cimag(z);
	return CMPLX(cosh(x) * cos(y), sinh(x) * sin(y));
}
WEAK double complex ctanh(double complex z) {
	double x = creal(z), y = cimag(z);
	if (fabs(x) > 20)
		return CMPLX(copysign(1.0, x), copysign(0.0, sin(2 * y)));
	double d = cosh(2 * x) + cos(2 * y);
	return CMPLX(sinh(2 * x) / d, sin(2 * y) / d);
}
/* The circular functions through the hyperbolic ones: sin z = -i sinh iz,
 * cos z = cosh iz, tan z = -i tanh iz. */
WEAK double complex csin(double complex z) {
	double complex w = csinh(CMPLX(-cimag(z), creal(z)));
	return CMPLX(cimag(w), -creal(w));
}
WEAK double complex ccos(double complex z) { return ccosh(CMPLX(-cimag(z), creal(z))); }
WEAK double complex ctan(double complex z) {
	double complex w = ctanh(CMPLX(-cimag(z), creal(z)));
	return CMPLX(cimag(w), -creal(w));
}

WEAK double complex casinh(double complex z) {
	return clog(z + csqrt(mul(z, z) + 1.0));
}
WEAK double complex cacosh(double complex z) {
	return clog(z + mul(csqrt(z + 1.0), csqrt(z - 1.0)));
}
WEAK double complex catanh(double complex z) {
	double complex w = clog(1.0 + z) - clog(1.0 - z);
	return CMPLX(creal(w) / 2, cimag(w) / 2);
}
WEAK double complex casin(double complex z) {
	double complex w = casinh(CMPLX(-cimag(z), creal(z)));
	return CMPLX(cimag(w), -creal(w));
}
WEAK double complex cacos(double complex z) {
	double complex w = casin(z);
	return CMPLX(M_PI_2 - creal(w), -cimag(w));
}
WEAK double complex catan(double complex z) {
	double complex w = catanh(CMPLX(-cimag(z), creal(z)));
	return CMPLX(cimag(w), -creal(w));
}

/* The float and long double forms, in double. REAL defines name's form
 * with suffix s for type t, whose complex type is ct; FORM one of a
 * complex result, whose values make makes. */
#define REAL(name, s, t, ct)                                                                       \
	WEAK t name##s(ct z) { return name(CMPLX(__real__ z, __imag__ z)); }
#define FORM(name, s, ct, make)                                                                    \
	WEAK ct name##s(ct z) {                                                                    \
		double complex w = name(CMPLX(__real__ z, __imag__ z));                             \
		return make(creal(w), cimag(w));                                                   \
	}
#define FORMS(name) FORM(name, f, float complex, CMPLXF) FORM(name, l, long double complex, CMPLXL)

WEAK float crealf(float complex z) { return __real__ z; }
WEAK float cimagf(float complex z) { return __imag__ z; }
WEAK long double creall(long double complex z) { return __real__ z; }
WEAK long double cimagl(long double complex z) { return __imag__ z; }
REAL(cabs, f, float, float complex)
REAL(carg, f, float, float complex)
REAL(cabs, l, long double, long double complex)
REAL(carg, l, long double, long double complex)
FORMS(conj)
FORMS(cproj)
FORMS(cexp)
FORMS(clog)
FORMS(csqrt)
FORMS(csinh)
FORMS(ccosh)
FORMS(ctanh)
FORMS(csin)
FORMS(ccos)
FORMS(ctan)
FORMS(casinh)
FORMS(cacosh)
FORMS(catanh)
FORMS(casin)
FORMS(cacos)
FORMS(catan)
WEAK float complex cpowf(float complex x, float complex y) {
	double complex w = cpow(CMPLX(__real__ x, __imag__ x), CMPLX(__real__ y, __imag__ y));
	return CMPLXF(creal(w), cimag(w));
}
WEAK long double complex cpowl(long double complex x, long double complex y) {
	double complex w = cpow(CMPLX(__real__ x, __imag__ x), CMPLX(__real__ y, __imag__ y));
	return CMPLXL(creal(w), cimag(w));
}
