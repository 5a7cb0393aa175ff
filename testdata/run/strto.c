/* The strto* family: bases 0, 2, 8, 16, 36, leading space and signs,
 * where parsing stops, overflow clamping with ERANGE, strtoul of a
 * negative number, and floating-point forms (hexadecimal ones without
 * an exponent, a NaN with a sign or a tag). */
#include <errno.h>
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>

static void l(const char *s, int base) {
	char *end;
	errno = 0;
	long v = strtol(s, &end, base);
	printf("strtol(\"%s\", %d) = %ld, rest \"%s\", errno %d\n", s, base, v, end, errno);
}

int main(void) {
	l("  -42abc", 10);
	l("0x1F", 0);
	l("0777", 0);
	l("101101", 2);
	l("zz", 36);
	l("9223372036854775808", 10);
	l("-9223372036854775809", 10);
	l("   ", 10);
	l("+7", 10);
	char *end;
	errno = 0;
	unsigned long u = strtoul("-1", &end, 10);
	printf("strtoul(-1) = %lu errno %d\n", u, errno);
	errno = 0;
	unsigned long long ull = strtoull("18446744073709551616", &end, 10);
	printf("strtoull overflow = %llu errno %d\n", ull, errno);
	printf("strtoll %lld strtoimax %jd strtoumax %ju\n", strtoll("-123456789012", NULL, 10), strtoimax("77", NULL, 8),
	       strtoumax("ff", NULL, 16));
	const char *fs[] = {"3.25", "-1e-3", "  .5x", "1e400", "inf", "nan", "0x1p4", "junk", "0x1.8", "-0x.8z", "0x", "-nan", "NaN(12ab)!"};
	for (size_t i = 0; i < sizeof fs / sizeof fs[0]; i++) {
		errno = 0;
		double d = strtod(fs[i], &end);
		float f = strtof(fs[i], NULL);
		printf("strtod(\"%s\") = %g (float %g), rest \"%s\", erange %d\n", fs[i], d, f, end, errno == ERANGE);
	}
	printf("atoi %d atol %ld atof %.2f\n", atoi(" 12ab"), atol("-99"), atof("2.50"));
	return 0;
}
