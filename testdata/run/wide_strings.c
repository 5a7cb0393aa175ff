/* Wide strings as portable C code formats and parses them: swprintf with
 * narrow and wide string arguments (a wide argument's characters, ASCII
 * or not, come back as they were), numbers, a width and a precision, a
 * result that does not fit (-1); printf's %ls and %lc of ASCII text and
 * %ls's precision; and the wide number conversions with the end they
 * stop at. The output must be native's. */
#include <stdio.h>
#include <wchar.h>

int main(void) {
	wchar_t buf[64];
	int n = swprintf(buf, 64, L"%ls|%s|%d|%5.2f|%lc|%-4d|%x", L"h\u00e9llo w\u00f6rld", "narrow", -42, 3.14159,
	                 (wint_t)L'\u00df', 7, 255);
	printf("swprintf %d:", n);
	for (int i = 0; i < n; i++)
		printf(" %x", (unsigned)buf[i]);
	printf("\n");
	wchar_t small[8];
	n = swprintf(small, 8, L"%ls", L"too long for eight");
	printf("too long: %d\n", n);
	printf("%ls|%.3ls|%lc|%6ls|\n", L"wide", L"precision", (wint_t)L'c', L"pad");
	wchar_t *end;
	long l = wcstol(L"  -42xyz", &end, 10);
	printf("wcstol %ld, stopped at %td\n", l, end - L"  -42xyz");
	const wchar_t *hex = L"0x1fZ";
	unsigned long u = wcstoul(hex, &end, 16);
	printf("wcstoul %lu, stopped at %td\n", u, end - hex);
	const wchar_t *d = L"3.5e2abc";
	double v = wcstod(d, &end);
	printf("wcstod %g, stopped at %td\n", v, end - d);
	const wchar_t *none = L"\u00e9t\u00e9";
	printf("wcstoll %lld, stopped at %td\n", wcstoll(none, &end, 10), end - none);
	return 0;
}
