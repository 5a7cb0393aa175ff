/* %a hexadecimal floating point (rounding up to the next power of two
 * too, and subnormals, which glibc writes as 0x0.<fraction>p-1022), %La
 * in glibc's x87 layout (1.0L is 0x8p-3), the point "#" keeps, and %g
 * corner cases. */
#include <float.h>
#include <stdio.h>

int main(void) {
	double v[] = {1.0, 0.5, 3.0, -10.25, 0.1, 1e-300, 123456.0};
	for (int i = 0; i < 7; i++)
		printf("%a %A %.2a\n", v[i], v[i], v[i]);
	printf("%g %g %g %g %g\n", 100000.0, 1000000.0, 0.0001, 0.00001, 123456789.0);
	printf("%.0g %.1g %#.3g %g\n", 0.5, 0.05, 1.0, 1e100);
	printf("%e %.0e %#.0e\n", 0.0, 12345.0, 5.0);
	/* Rounded past the next power of two: glibc writes 0x2.00p+e. */
	printf("%.4a %.0a %.2a %.1a %.2A\n", 1.7976931348623157e308, 1.7976931348623157e308, 1.999, -1.97, 3.999);
	/* Subnormals, at every precision: rounded to even, carried into the
	 * leading digit. */
	double sub[] = {0x1p-1074, -0x1.8p-1070, DBL_MIN / 2, 0x0.fffffffffffffp-1022, 0x0.1234567890abcp-1022};
	for (int i = 0; i < 5; i++)
		printf("%a|%.0a|%#.0a|%.1a|%.3a|%.13a|%.15a|%A|%20.2a\n", sub[i], sub[i], sub[i], sub[i], sub[i],
		       sub[i], sub[i], sub[i], sub[i]);
	/* "#" keeps the point when no digit follows it. */
	printf("%#.0a %#a %#.0a %#A\n", 1.0, 0.5, 3.0, -2.0);
	/* %La: the significand's integer bit heads the first digit (values
	 * exact in a double, which augur holds a long double as). */
	long double l[] = {0.0L, 1.0L, 3.0L, -2.5L, 0.5L, 123456.0L, 15.875L, 0x1.fffp+100L};
	for (int i = 0; i < 8; i++)
		printf("%La|%.0La|%.1La|%#.0La|%LA|%16.3La|%-10La|\n", l[i], l[i], l[i], l[i], l[i], l[i], l[i]);
	return 0;
}
