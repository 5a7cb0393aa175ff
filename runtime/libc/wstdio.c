/* Wide-oriented stdio: fwide, the wide printf family, fputwc and
 * fputws, fgetwc and fgetws, ungetwc, over the byte streams' models.
 *
 * A stream's orientation is glibc's FILE field _mode: 0 until the first
 * wide call or fwide decides it, then positive for wide, negative for
 * byte. As in glibc, a wide stream's codec is the locale's when the
 * stream turns wide: UTF-8 in C.UTF-8; in "C", ASCII, where a character
 * past it is written as '?' (glibc's C locale does so) and a byte past it
 * does not read. A wide call on a byte stream fails. The byte models do
 * not look at _mode: a byte call on a wide stream works here (natively it
 * fails), and does not make a stream byte-oriented (fwide then says 0,
 * natively -1). wscanf and its kin are not here. */
#define _GNU_SOURCE
#include <errno.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <wchar.h>

#define WEAK __attribute__((weak))

size_t __augur_utf8_put(char *s, unsigned c);              /* locale.c */
size_t __augur_utf8_get(const char *s, wchar_t *c);        /* locale.c */
char *__augur_wformat(const wchar_t *fmt, va_list ap);     /* locale.c */
size_t __augur_utf8_mbrtowc(wchar_t *wc, const char *s, size_t n, mbstate_t *st); /* locale.c */

enum { wideUTF8 = 1, wideASCII = 2 };

/* localeCodec is the codec a stream that turns wide now takes. */
static int localeCodec(void) { return MB_CUR_MAX > 1 ? wideUTF8 : wideASCII; }

/* orient gives f the orientation want (positive: wide in that codec;
 * negative: byte) if it has none yet, and returns f's orientation. The
 * field is read and set atomically: threads that use one stream at once
 * do not race on it. */
static int orient(FILE *f, int want) {
	int m = __atomic_load_n(&f->_mode, __ATOMIC_ACQUIRE);
	if (m == 0 && want != 0 &&
	    __atomic_compare_exchange_n(&f->_mode, &m, want, 0, __ATOMIC_ACQ_REL, __ATOMIC_ACQUIRE))
		return want;
	return m;
}

/* wideCodec makes f wide if it has no orientation yet and returns its
 * codec; 0 for a byte stream. */
static int wideCodec(FILE *f) {
	int m = orient(f, localeCodec());
	return m > 0 ? m : 0;
}

WEAK int fwide(FILE *f, int mode) {
	int m = orient(f, mode < 0 ? -1 : mode > 0 ? localeCodec() : 0);
	return m > 0 ? 1 : m < 0 ? -1 : 0;
}

/* encode writes c in codec into out (six bytes at most) and returns the
 * length, or 0 for a value no character has (EILSEQ). */
static size_t encode(int codec, wchar_t c, char *out) {
	unsigned u = (unsigned)c;
	if (codec == wideASCII) {
		out[0] = u < 0x80 ? (char)u : '?';
		return 1;
	}
	if ((u >= 0xd800 && u <= 0xdfff) || u > 0x7fffffff) {
		errno = EILSEQ;
		return 0;
	}
	return __augur_utf8_put(out, u);
}

WEAK wint_t fputwc(wchar_t c, FILE *f) {
	int codec = wideCodec(f);
	char b[6];
	size_t n = codec ? encode(codec, c, b) : 0;
	if (n == 0 || fwrite(b, 1, n, f) != n)
		return WEOF;
	return (wint_t)c;
}
WEAK wint_t putwc(wchar_t c, FILE *f) { return fputwc(c, f); }
WEAK wint_t fputwc_unlocked(wchar_t c, FILE *f) { return fputwc(c, f); }
WEAK wint_t putwc_unlocked(wchar_t c, FILE *f) { return fputwc(c, f); }
WEAK wint_t putwchar(wchar_t c) { return fputwc(c, stdout); }
WEAK wint_t putwchar_unlocked(wchar_t c) { return fputwc(c, stdout); }

WEAK int fputws(const wchar_t *restrict s, FILE *restrict f) {
	for (; *s; s++)
		if (fputwc(*s, f) == WEOF)
			return -1;
	return 1; /* glibc's */
}
WEAK int fputws_unlocked(const wchar_t *restrict s, FILE *restrict f) { return fputws(s, f); }

WEAK int vfwprintf(FILE *restrict f, const wchar_t *restrict fmt, va_list ap) {
	int codec = wideCodec(f);
	if (!codec)
		return -1;
	char *buf = __augur_wformat(fmt, ap);
	if (!buf)
		return -1;
	int count = 0;
	for (const char *p = buf; *p; count++) {
		wchar_t c;
		size_t n = __augur_utf8_get(p, &c);
		if (codec == wideASCII && (unsigned)c >= 0x80) {
			if (fwrite("?", 1, 1, f) != 1)
				count = -1;
		} else if (fwrite(p, 1, n, f) != n) {
			count = -1;
		}
		if (count < 0)
			break;
		p += n;
	}
	free(buf);
	return count;
}
WEAK int fwprintf(FILE *restrict f, const wchar_t *restrict fmt, ...) {
	va_list ap;
	va_start(ap, fmt);
	int r = vfwprintf(f, fmt, ap);
	va_end(ap);
	return r;
}
WEAK int vwprintf(const wchar_t *restrict fmt, va_list ap) { return vfwprintf(stdout, fmt, ap); }
WEAK int wprintf(const wchar_t *restrict fmt, ...) {
	va_list ap;
	va_start(ap, fmt);
	int r = vfwprintf(stdout, fmt, ap);
	va_end(ap);
	return r;
}

/* fgetwc reads one character in f's codec: WEOF at the end of input, or
 * with EILSEQ at a byte sequence no character has (a byte that starts
 * another character is left to read). */
WEAK wint_t fgetwc(FILE *f) {
	int codec = wideCodec(f);
	if (!codec)
		return WEOF;
	mbstate_t st;
	memset(&st, 0, sizeof st);
	for (int c, first = 1; (c = fgetc(f)) != EOF; first = 0) {
		wchar_t wc = (wchar_t)c;
		size_t r = c < 0x80 ? 1 : (size_t)-1;
		if (codec == wideUTF8) {
			char b = (char)c;
			r = __augur_utf8_mbrtowc(&wc, &b, 1, &st);
		}
		if (r == (size_t)-1) {
			if (!first && (c & 0xc0) != 0x80)
				ungetc(c, f); /* it starts another character */
			errno = EILSEQ;
			return WEOF;
		}
		if (r != (size_t)-2)
			return (wint_t)wc;
	}
	if (!mbsinit(&st))
		errno = EILSEQ; /* input ended within a character */
	return WEOF;
}
WEAK wint_t getwc(FILE *f) { return fgetwc(f); }
WEAK wint_t fgetwc_unlocked(FILE *f) { return fgetwc(f); }
WEAK wint_t getwc_unlocked(FILE *f) { return fgetwc(f); }
WEAK wint_t getwchar(void) { return fgetwc(stdin); }
WEAK wint_t getwchar_unlocked(void) { return fgetwc(stdin); }

WEAK wchar_t *fgetws(wchar_t *restrict s, int n, FILE *restrict f) {
	int i = 0;
	while (i < n - 1) {
		wint_t c = fgetwc(f);
		if (c == WEOF)
			break;
		s[i++] = (wchar_t)c;
		if (c == L'\n')
			break;
	}
	if (i == 0 || n <= 0)
		return NULL;
	s[i] = 0;
	return s;
}
WEAK wchar_t *fgetws_unlocked(wchar_t *restrict s, int n, FILE *restrict f) { return fgetws(s, n, f); }

/* ungetwc pushes back a character of one byte in f's codec; the stream
 * keeps one byte pushed back, so a longer one is refused (WEOF), where
 * glibc takes it. */
WEAK wint_t ungetwc(wint_t c, FILE *f) {
	int codec = wideCodec(f);
	char b[6];
	if (!codec || c == WEOF || (codec == wideASCII && c >= 0x80) || encode(codec, (wchar_t)c, b) != 1 ||
	    ungetc((unsigned char)b[0], f) == EOF)
		return WEOF;
	return c;
}
