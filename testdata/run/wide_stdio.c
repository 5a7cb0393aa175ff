/* Wide-oriented stdio: fwide, wprintf to stdout in the "C" locale (a
 * character past ASCII comes out as '?'), then in C.UTF-8 fwprintf, fputws
 * and fputwc to a file read back with fgetwc, fgetws, ungetwc and getwc;
 * a stream made byte-oriented by fwide refuses wide calls; a byte no
 * UTF-8 character starts with reads as EILSEQ. (Byte calls on a wide
 * stream are not here: augur lets them through, glibc fails them.) The
 * output must be native's. */
#include <errno.h>
#include <locale.h>
#include <stdio.h>
#include <string.h>
#include <wchar.h>
int main(void) {
	fprintf(stderr, "stdout orientation before %d\n", fwide(stdout, 0));
	int r = wprintf(L"ascii %d %ls %5.2f|%-4lc|\n", 42, L"wide", 3.14159, L'x');
	fprintf(stderr, "wprintf %d, orientation %d\n", r, fwide(stdout, 0));
	r = wprintf(L"h\u00e9llo\n");
	fprintf(stderr, "C locale: wprintf of a character past ASCII %d\n", r);
	fflush(stdout);
	setlocale(LC_ALL, "C.UTF-8");
	FILE *f = fopen("wide.txt", "w+");
	fprintf(stderr, "fwprintf %d\n", fwprintf(f, L"%ls=%d \u4e2d\u6587\n", L"\u00fcber", 7));
	fprintf(stderr, "fputws %d fputwc %x\n", fputws(L"caf\u00e9\n", f), (unsigned)fputwc(L'\u20ac', f));
	rewind(f);
	wint_t c;
	int n = 0;
	while ((c = fgetwc(f)) != WEOF) {
		fprintf(stderr, "%x ", (unsigned)c);
		n++;
	}
	fprintf(stderr, "\nread %d, orientation %d\n", n, fwide(f, 0));
	rewind(f);
	wchar_t line[32];
	wchar_t *got = fgetws(line, 32, f);
	fprintf(stderr, "fgetws %d, %zu characters\n", got == line, wcslen(line));
	fprintf(stderr, "ungetwc %x, getwc %x\n", (unsigned)ungetwc(L'Z', f), (unsigned)getwc(f));
	fclose(f);
	FILE *g = fopen("wide2.txt", "w");
	fprintf(stderr, "fwide(-1) %d, then fwide(5) %d\n", fwide(g, -1), fwide(g, 5));
	fprintf(stderr, "fputwc on a byte stream %d, fwprintf %d\n", (int)fputwc(L'a', g), fwprintf(g, L"x"));
	fclose(g);
	FILE *h = fopen("wide3.txt", "w");
	fwrite("ok\xff\n", 1, 4, h);
	fclose(h);
	h = fopen("wide3.txt", "r");
	fprintf(stderr, "fwide(1) %d\n", fwide(h, 1));
	errno = 0;
	wint_t a = fgetwc(h), b = fgetwc(h), bad = fgetwc(h);
	fprintf(stderr, "%x %x then %d EILSEQ %d\n", (unsigned)a, (unsigned)b, (int)bad, errno == EILSEQ);
	fclose(h);
	return 0;
}
