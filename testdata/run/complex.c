/* <complex.h> as numeric and signal code uses it: products and quotients
 * (clang calls __muldc3 when an inline product is NaN, __divdc3 for every
 * quotient, and __mulsc3 for `2 * I`, a float complex passed as a
 * vector), Annex G's infinities, the principal branches of csqrt and
 * clog, the circular, hyperbolic and inverse functions, the float and
 * long double forms, and a four-point DFT. The output must be native's. */
#include <complex.h>
#include <math.h>
#include <stdio.h>
static void show(const char *name, double complex z) { printf("%s %.6f %+.6fi\n", name, creal(z), cimag(z)); }
static void doubles(void) {
	volatile double re = 1.0, im = 2.0;
	double complex z = re + im * I, w = 3.0 - 1.0 * I, zero = 0;
	show("mul", z * w); show("div", z / w); show("div0", z / zero);
	show("inf*", (INFINITY + 0 * I) * w);
	printf("abs %.6f arg %.6f\n", cabs(z), carg(w));
	show("conj", conj(z)); show("proj", cproj(INFINITY - 2 * I));
	show("exp", cexp(z)); show("expipi", cexp(I * M_PI)); show("log", clog(z)); show("logneg", clog(-1.0));
	show("sqrt", csqrt(z)); show("sqrtneg", csqrt(-4.0)); show("sqrtnegz", csqrt(conj(-4.0))); show("sqrtw", csqrt(w));
	show("pow", cpow(z, w)); show("powhalf", cpow(-1.0, 0.5));
	show("sin", csin(z)); show("cos", ccos(z)); show("tan", ctan(z));
	show("sinh", csinh(z)); show("cosh", ccosh(z)); show("tanh", ctanh(z));
	show("asin", casin(z)); show("acos", cacos(z)); show("atan", catan(z));
	show("asinh", casinh(z)); show("acosh", cacosh(z)); show("atanh", catanh(z));
	long double complex lz = 1.5L + 0.5L * I;
	long double complex lq = lz / (2.0L - 1.0L * I);
	printf("long %.6Lf %+.6Lfi %.6Lf\n", creall(lq), cimagl(lq), cabsl(cexpl(lz)));
	/* an FFT butterfly, as signal code writes it */
	double complex x[4] = {1, 2, 3, 4}, X[4];
	for (int k = 0; k < 4; k++) {
		X[k] = 0;
		for (int n = 0; n < 4; n++)
			X[k] += x[n] * cexp(-2 * I * M_PI * k * n / 4);
	}
	for (int k = 0; k < 4; k++)
		printf("X%d %.3f %+.3fi\n", k, creal(X[k]), fabs(cimag(X[k])) < 1e-9 ? 0.0 : cimag(X[k]));
}

/* The float forms, and infinities with a NaN part. */
static void floats(void) {
	volatile float a = NAN;
	float complex z = 1.0f + 2.0f * I, w = 3.0f - 1.0f * I;
	float complex p = z * w, q = z / w;
	printf("%.4f %.4f %.4f %.4f\n", crealf(p), cimagf(p), crealf(q), cimagf(q));
	float complex e = cexpf(z), s = csqrtf(-4.0f + 0.0f * I), l = clogf(w);
	printf("%.4f %.4f %.4f %.4f %.4f %.4f %.4f %.4f\n", crealf(e), cimagf(e), crealf(s), cimagf(s), crealf(l), cimagf(l), cabsf(z), cargf(w));
	float complex inf = INFINITY + a * I;
	float complex r = inf * w;
	printf("%f %f\n", crealf(r), cimagf(r));
	double complex dinf = INFINITY + (double)a * I, dr = dinf * (2.0 + 1.0 * I);
	printf("%f %f\n", creal(dr), cimag(dr));
	float complex pw = cpowf(z, 2.0f);
	printf("%.3f %.3f\n", crealf(pw), cimagf(pw));
}

int main(void) {
	doubles();
	floats();
	return 0;
}
