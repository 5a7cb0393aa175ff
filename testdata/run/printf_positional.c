/* Positional arguments, as a translated message catalogue uses them
 * ("%2$s-%1$d"): conversions that name their argument by number, an
 * argument used twice, a width and a precision taken by number, a long
 * double among words through a va_list, %n by number and %% beside them.
 * The output must be native's. */
#include <stdio.h>
#include <stdarg.h>
#include <string.h>
static void say(const char *fmt, ...) { va_list ap; va_start(ap, fmt); vprintf(fmt, ap); va_end(ap); }
int main(void) {
	printf("%2$s-%1$d|\n", 7, "x");
	printf("%3$*1$.*2$f|%1$d|\n", 10, 3, 3.14159);
	say("%2$Lf %1$d %3$s %2$.1Lf\n", 5, (long double)2.5, "ld");
	say("%1$s %1$s %3$c %2$5.2e\n", "twice", 1234.5, 'q');
	char b[64]; int n = snprintf(b, sizeof b, "%2$s%1$s%%", "a", "b"); printf("%s %d\n", b, n);
	int cnt; printf("%1$s%2$n|\n", "abc", &cnt); printf("count %d\n", cnt);
	printf("%1$-6s|%1$6s|%2$#x|%2$o\n", "pad", 255);
	return 0;
}
