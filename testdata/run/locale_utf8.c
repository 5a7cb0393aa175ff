/* The two locales a system without installed locales has, "C" and
 * C.UTF-8, as a program that calls setlocale first meets them: names by
 * category (POSIX is "C"; a UTF-8 spelling stays as written; a missing
 * locale changes nothing), "" from LC_ALL, LC_<category> and LANG, the
 * list LC_ALL gives when categories differ and setting it back; then
 * UTF-8 conversions character by character (a sequence split over calls,
 * overlong forms, surrogates, six-byte forms), the string conversions and
 * where they stop, MB_CUR_MAX, the codeset, printf's %ls, and wcwidth,
 * case mappings and classes of a few well-known characters. The output must be native's. */
#define _GNU_SOURCE
#include <errno.h>
#include <langinfo.h>
#include <locale.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <wchar.h>
#include <wctype.h>

static void set(int cat, const char *name) {
	const char *r = setlocale(cat, name);
	printf("setlocale(%d, %s) = %s\n", cat, name ? name : "NULL", r ? r : "NULL");
}

static void decode(const char *s, size_t n) {
	mbstate_t st;
	memset(&st, 0, sizeof st);
	wchar_t w = 0;
	errno = 0;
	size_t r = mbrtowc(&w, s, n, &st);
	printf(" %ld/%x/%d", (long)r, (unsigned)w, errno);
}

int main(void) {
	set(LC_ALL, NULL);
	printf("C: MB_CUR_MAX %zu codeset %s\n", MB_CUR_MAX, nl_langinfo(CODESET));
	wchar_t w;
	printf("C refuses a byte past 0x7f: %d\n", mbtowc(&w, "\xc3\xa9", 2));
	set(LC_ALL, "C.UTF-8");
	set(LC_ALL, "C.utf8");
	set(LC_ALL, "xx_YY.UTF-8");
	set(LC_ALL, NULL);
	set(LC_ALL, "POSIX");
	set(LC_CTYPE, "C.UTF-8");
	set(LC_ALL, NULL);
	char *saved = strdup(setlocale(LC_ALL, NULL));
	set(LC_ALL, "C");
	set(LC_ALL, saved);
	set(LC_NUMERIC, NULL);
	set(LC_CTYPE, NULL);
	free(saved);

	setenv("LC_ALL", "C.UTF-8", 1);
	set(LC_ALL, "");
	unsetenv("LC_ALL");
	setenv("LANG", "C.UTF-8", 1);
	setenv("LC_MESSAGES", "C", 1);
	set(LC_ALL, "");
	setenv("LANG", "de_DE.UTF-8", 1);
	set(LC_TIME, "");
	set(LC_TIME, NULL);
	unsetenv("LC_MESSAGES");
	setenv("LANG", "C.UTF-8", 1);
	set(LC_ALL, "");
	printf("UTF-8: MB_CUR_MAX %zu codeset %s\n", MB_CUR_MAX, nl_langinfo(CODESET));

	printf("decode:");
	decode("a", 1);
	decode("", 1);
	decode("\xc3\xa9", 2);
	decode("\xe2\x82\xac", 3);
	decode("\xf0\x9f\x98\x80", 4);
	decode("\xe2\x82", 2);
	decode("\xc1\xbf", 2);
	decode("\xe0\x80\x80", 3);
	decode("\xed\xa0\x80", 3);
	decode("\xf4\x90\x80\x80", 4);
	decode("\xf8\x88\x80\x80\x80", 5);
	decode("\xe2\x28\xa1", 3);
	decode("\x80", 1);
	decode("\xff", 1);
	decode("a", 0);
	printf("\n");

	mbstate_t st;
	memset(&st, 0, sizeof st);
	const char *euro = "\xe2\x82\xac";
	printf("split:");
	for (int i = 0; i < 3; i++)
		printf(" %ld", (long)mbrtowc(&w, euro + i, 1, &st));
	printf(" -> %x, initial %d\n", (unsigned)w, mbsinit(&st));
	mbrtowc(&w, euro, 1, &st);
	printf("mid-sequence: initial %d, end %ld errno %d\n", mbsinit(&st), (long)mbrtowc(NULL, NULL, 0, &st), errno);

	printf("mbtowc keeps its state: %d", mbtowc(&w, "\xe2\x82", 2));
	printf(" %d", mbtowc(&w, "a", 1));
	printf(" reset %d %d\n", mbtowc(NULL, NULL, 0), mbtowc(&w, "a", 1));
	printf("mblen %d %d %d %d\n", mblen("\xc3\xa9", 2), mblen("\xc3", 1), mblen("", 1), mblen("\xf0\x9f\x98\x80", 4));

	char buf[8];
	memset(&st, 0, sizeof st); /* what a failed conversion leaves in it is unspecified */
	static const unsigned enc[] = {0x41, 0xe9, 0x7ff, 0x800, 0x20ac, 0xffff, 0x10000, 0x1f600, 0x10ffff, 0x110000,
	                               0x3ffffff, 0x7fffffff, 0xd800, 0x80000000u};
	printf("encode:");
	for (size_t i = 0; i < sizeof enc / sizeof *enc; i++) {
		errno = 0;
		size_t r = wcrtomb(buf, (wchar_t)enc[i], &st);
		printf(" %x:%ld", enc[i], (long)r);
		for (size_t k = 0; r != (size_t)-1 && k < r; k++)
			printf("%s%02x", k ? "" : "=", (unsigned char)buf[k]);
	}
	printf("\nwcrtomb(NULL) %ld, wctomb %d\n", (long)wcrtomb(NULL, 0x20ac, &st), wctomb(buf, 0xe9));

	const char *text = "na\xc3\xafve \xe2\x82\xac" "5";
	printf("mbstowcs count %zu\n", mbstowcs(NULL, text, 0));
	wchar_t ws[16];
	size_t n = mbstowcs(ws, text, 16);
	printf("mbstowcs %zu:", n);
	for (size_t i = 0; i < n; i++)
		printf(" %x", (unsigned)ws[i]);
	printf("\n");
	const char *src = text;
	memset(&st, 0, sizeof st);
	n = mbsrtowcs(ws, &src, 4, &st);
	printf("mbsrtowcs stops after %zu, at offset %td\n", n, src - text);
	n = mbsrtowcs(ws, &src, 16, &st);
	printf("then %zu, src %s\n", n, src ? "set" : "NULL");
	src = "ab\xff";
	printf("bad %ld errno %d at offset %d\n", (long)mbsrtowcs(ws, &src, 16, &st), errno, src ? (int)(src[0] & 0xff) : -1);
	src = "\xe2\x82\xac\xe2\x82\xac\xe2";
	printf("mbsnrtowcs of 4 bytes %zu\n", mbsnrtowcs(ws, &src, 4, 16, &st));

	const wchar_t *wide = L"caf\u00e9 \u20ac";
	printf("wcstombs count %zu\n", wcstombs(NULL, wide, 0));
	char out[16];
	memset(out, 'x', sizeof out);
	n = wcstombs(out, wide, 4);
	printf("wcstombs into 4: %zu\n", n);
	n = wcstombs(out, wide, 5);
	printf("into 5: %zu\n", n);
	n = wcstombs(out, wide, sizeof out);
	printf("whole: %zu %s\n", n, out);
	const wchar_t *wsrc = wide;
	memset(&st, 0, sizeof st);
	n = wcsrtombs(out, &wsrc, 3, &st);
	printf("wcsrtombs %zu, left at %td\n", n, wsrc - wide);
	wsrc = L"ok\xd800";
	printf("surrogate %ld errno %d\n", (long)wcsrtombs(out, &wsrc, 16, &st), errno);

	printf("%ls|%lc|%4ls|%.3ls|\n", L"\u00e9t\u00e9", (wint_t)0x20ac, L"ab", L"na\u00efve");
	printf("wcwidth %d %d %d %d %d %d %d\n", wcwidth(L'a'), wcwidth(0), wcwidth(0x7), wcwidth(0x4e00), wcwidth(0x301),
	       wcwidth(0xff21), wcwidth(0xac00));
	printf("wcswidth %d %d\n", wcswidth(L"ab\u4e2d\u6587", 8), wcswidth(L"a\a", 2));
	static const unsigned letters[] = {0xe9, 0xc9, 0xdf, 0xff, 0x101, 0x3c9, 0x3c2, 0x3ac, 0x44f, 0x451, 0x561,
	                                   0x10d0, 0x1e01, 0x1f00, 0x2170, 0x24d0, 0xff41, 0x4e2d, 0x30a2, 0xac00, 0xd7,
	                                   0x5d0, 0xe01};
	printf("case:");
	for (size_t i = 0; i < sizeof letters / sizeof *letters; i++) {
		wint_t c = letters[i];
		printf(" %x:%x/%x/%d%d%d", (unsigned)c, (unsigned)towupper(c), (unsigned)towlower(c), !!iswalpha(c),
		       !!iswupper(c), !!iswlower(c));
	}
	printf("\n");
	setlocale(LC_ALL, "C");
	printf("C again: MB_CUR_MAX %zu wcwidth %d towupper %x iswalpha %d\n", MB_CUR_MAX, wcwidth(0xe9),
	       (unsigned)towupper(0xe9), !!iswalpha(0xe9));
	return 0;
}
