/* long double's libm: the l-suffixed functions, printed to ten decimals
 * (augur computes a long double with double's precision, which agrees
 * with the x87's that far), and the float variants of ldexp and frexp. */
#include <math.h>
#include <stdio.h>

int main(void) {
	long double x = 2.0L, i;
	printf("%.10Lf %.10Lf %.10Lf\n", sqrtl(x), expl(1.5L), logl(10.0L));
	printf("%.10Lf %.10Lf %.10Lf\n", powl(x, 0.5L), fabsl(-3.25L), floorl(-2.5L));
	printf("%.10Lf %.10Lf %.10Lf\n", sinl(1.0L), atan2l(1.0L, 2.0L), fmodl(7.5L, 2.0L));
	int e;
	long double m = frexpl(48.0L, &e);
	printf("%.4Lf %d %.4Lf %.4Lf\n", m, e, ldexpl(0.75L, 6), scalbnl(1.0L, -3));
	long double f = modfl(-3.75L, &i);
	printf("%.4Lf %.4Lf %ld %lld\n", f, i, lroundl(2.5L), llroundl(-2.5L));
	float g = frexpf(10.0f, &e);
	printf("%.4f %d %.4f %.4f\n", g, e, ldexpf(1.5f, 3), scalbn(3.0, 2));
	return 0;
}
