/* %a hexadecimal floating point (rounding up to the next power of two
 * too, and subnormals, which glibc writes as 0x0.<fraction>p-1022) and %g
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
	return 0;
}
