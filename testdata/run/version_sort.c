/* strverscmp, as `ls -v` and package tools sort file names by it: digit
 * runs compare by value, a run with a leading zero is a fraction (less
 * than any integer, and smaller for more leading zeros), the rest as
 * strcmp. Names sorted with it through qsort, then pairs at every kind of
 * boundary; and ffs, ffsl and ffsll. The output must be native's. */
#define _GNU_SOURCE
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>

static int by_version(const void *a, const void *b) { return strverscmp(*(char *const *)a, *(char *const *)b); }
static int sign(int x) { return (x > 0) - (x < 0); }

int main(void) {
	const char *names[] = {"lib-1.10.so", "lib-1.9.so", "lib-1.09.so", "lib-1.010.so", "lib-1.0.so", "lib-1.00.so",
		"lib-1.000.so", "lib-2.so", "lib-10.so", "lib-1.1.so", "lib-1.so", "lib.so", "lib-1a.so", "lib-1.9b.so"};
	size_t n = sizeof names / sizeof names[0];
	qsort(names, n, sizeof names[0], by_version);
	for (size_t i = 0; i < n; i++)
		printf("%s%s", names[i], i + 1 < n ? " " : "\n");
	const char *pairs[][2] = {{"a9", "a10"}, {"a09", "a1"}, {"a0", "a00"}, {"a00", "a01"}, {"a0b", "a00"}, {"x", "x0"},
		{"1.2.3", "1.2.3"}, {"v1.2", "v1.2a"}, {"abc", "abd"}, {"099", "0100"}, {"100", "99"}, {"1-0", "1-00"}};
	for (size_t i = 0; i < sizeof pairs / sizeof pairs[0]; i++)
		printf("%s %s: %d\n", pairs[i][0], pairs[i][1], sign(strverscmp(pairs[i][0], pairs[i][1])));
	volatile long big = 1L << 40;
	volatile long long top = (long long)1 << 62;
	printf("ffs %d %d %d %d ffsl %d ffsll %d %d\n", ffs(0), ffs(1), ffs(96), ffs(-2147483647 - 1), ffsl(big), ffsll(top), ffsll(0));
	return 0;
}
