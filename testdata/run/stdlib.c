/* stdlib.h: conversions, rand with a seed, qsort, bsearch, abs, div (and
 * its ldiv, lldiv and imaxdiv forms), getenv. */
#include <errno.h>
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>

static int cmp(const void *a, const void *b) {
	int x = *(const int *)a, y = *(const int *)b;
	return (x > y) - (x < y);
}

int main(void) {
	printf("atoi %d %d %d\n", atoi("42"), atoi("  -17xyz"), atoi("abc"));
	char *end;
	printf("strtol %ld", strtol("0x1fZ", &end, 0));
	printf(" rest=%s %ld %ld %lu\n", end, strtol("0777", NULL, 0), strtol("-101", NULL, 2), strtoul("ff", NULL, 16));
	errno = 0;
	long big = strtol("99999999999999999999", NULL, 10);
	printf("range %ld %d\n", big, errno == ERANGE);
	printf("strtod %.3f %.1e %f\n", strtod("3.14159rest", &end), atof("-2.5e3"), atof("nope"));
	srand(42);
	for (int i = 0; i < 5; i++)
		printf("rand %d\n", rand());
	srand(7);
	printf("rand7 %d %d\n", rand() % 100, rand() % 100);
	unsigned seed = 5;
	printf("rand_r %d %d\n", rand_r(&seed), rand_r(&seed));
	int xs[] = {9, 3, 7, 1, 8, 2, 6, 4, 5, 0};
	qsort(xs, 10, sizeof xs[0], cmp);
	for (int i = 0; i < 10; i++)
		printf("%d", xs[i]);
	int key = 7;
	int *hit = bsearch(&key, xs, 10, sizeof xs[0], cmp);
	printf(" found %ld\n", hit ? (long)(hit - xs) : -1L);
	div_t d = div(17, 5);
	printf("abs %d %ld div %d %d\n", abs(-5), labs(-7L), d.quot, d.rem);
	ldiv_t ld = ldiv(-17L, 5L);
	lldiv_t lld = lldiv(-(1LL << 40) - 3, 7);
	imaxdiv_t im = imaxdiv(INTMAX_MIN + 1, 1000);
	printf("ldiv %ld %ld lldiv %lld %lld imaxdiv %jd %jd imaxabs %jd llabs %lld\n", ld.quot, ld.rem, lld.quot, lld.rem, im.quot,
	       im.rem, imaxabs(-42), llabs(-(1LL << 50)));
	printf("env %s\n", getenv("AUGUR_SURELY_UNSET_VARIABLE") ? "set" : "unset");
	return 0;
}
