// stdin: 42 -17 0x1f 3.5 word  tail\n7,8;9\nabc123 [x] 0755\n
/* The scanf family: integers of every base, floats, strings, character
 * sets, literal matching, suppression, %n, and the return values; and
 * the allocating conversions (%ms, %m[...], %mc, %5ms), whose buffers the
 * program frees. */
#include <stdio.h>
#include <stdlib.h>

int main(void) {
	int a, b, h;
	double d;
	char word[16], rest[16];
	int n = scanf("%d %i %x %lf %15s %15s", &a, &b, &h, &d, word, rest);
	printf("scanf %d: %d %d %d %.2f %s %s\n", n, a, b, h, d, word, rest);
	int x, y, z;
	n = scanf(" %d,%d;%d", &x, &y, &z);
	printf("punct %d: %d %d %d\n", n, x, y, z);
	char letters[8], br;
	int digits, oct;
	n = scanf(" %7[a-z]%d [%c] %o", letters, &digits, &br, &oct);
	printf("set %d: %s %d %c %o\n", n, letters, digits, br, oct);
	printf("eof %d\n", scanf("%d", &x));

	long l;
	unsigned u;
	short s;
	char c;
	float f;
	int used;
	n = sscanf("-9000000000 4000000000 -2 Z 2.5e1 end", "%ld %u %hd %c %f%n", &l, &u, &s, &c, &f, &used);
	printf("sscanf %d: %ld %u %d %c %.1f used=%d\n", n, l, u, s, c, f, used);
	n = sscanf("12 apples", "%*d %s", word);
	printf("suppress %d: %s\n", n, word);
	n = sscanf("abc", "%d", &x);
	printf("mismatch %d\n", n);
	n = sscanf("", "%d", &x);
	printf("empty %d\n", n);
	n = sscanf("key=value;", "%[^=]=%[^;]", word, rest);
	printf("kv %d: %s %s\n", n, word, rest);
	n = sscanf("100%", "%d%%", &x);
	printf("percent %d: %d\n", n, x);
	char *key = NULL, *val = NULL, *two = NULL, *cut = NULL;
	int m = sscanf("user=alice  xy rest-of-it", "%m[^=]=%ms %2mc %5ms", &key, &val, &two, &cut);
	printf("allocated %d: %s %s %.2s %s\n", m, key, val, two, cut);
	free(key);
	free(val);
	free(two);
	free(cut);
	return 0;
}
