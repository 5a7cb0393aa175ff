/* Variadic functions of the program: va_arg of ints, doubles, pointers,
 * va_copy, and forwarding to vprintf and vsnprintf. */
#include <stdarg.h>
#include <stdio.h>

static long sum(int n, ...) {
	va_list ap;
	va_start(ap, n);
	long s = 0;
	for (int i = 0; i < n; i++)
		s += va_arg(ap, int);
	va_end(ap);
	return s;
}

static double mean(int n, ...) {
	va_list ap, again;
	va_start(ap, n);
	va_copy(again, ap);
	double s = 0;
	for (int i = 0; i < n; i++)
		s += va_arg(ap, double);
	double first = va_arg(again, double);
	va_end(again);
	va_end(ap);
	return s / n + first * 0;
}

static void logf_(const char *tag, const char *fmt, ...) {
	va_list ap;
	printf("[%s] ", tag);
	va_start(ap, fmt);
	vprintf(fmt, ap);
	va_end(ap);
}

static int format(char *buf, size_t n, const char *fmt, ...) {
	va_list ap;
	va_start(ap, fmt);
	int r = vsnprintf(buf, n, fmt, ap);
	va_end(ap);
	return r;
}

static const char *nth(int k, ...) {
	va_list ap;
	va_start(ap, k);
	const char *s = NULL;
	for (int i = 0; i <= k; i++)
		s = va_arg(ap, const char *);
	va_end(ap);
	return s;
}

int main(void) {
	printf("sum %ld %ld\n", sum(3, 1, 2, 3), sum(8, 1, -2, 3, -4, 5, -6, 7, 100));
	printf("mean %.3f\n", mean(4, 1.0, 2.5, 3.5, 5.0));
	logf_("info", "%d threads, %s, %.1f%%\n", 4, "ok", 99.5);
	char buf[32];
	int r = format(buf, sizeof buf, "%s:%05d:%c", "id", 42, 'z');
	printf("%d %s\n", r, buf);
	printf("%s\n", nth(2, "zero", "one", "two", "three"));
	return 0;
}
