/* The "C" locale, the only one (setlocale is in posix.c): localeconv and
 * nl_langinfo describe it, the multibyte functions convert its one-byte
 * ASCII encoding (a byte past 0x7f is EILSEQ, as glibc's C locale says),
 * the wide-character classes and case mappings are ASCII's, and iconv
 * opens no conversion (EINVAL), as a system without the iconv modules. */
#define _GNU_SOURCE
#include <ctype.h>
#include <errno.h>
#include <iconv.h>
#include <langinfo.h>
#include <limits.h>
#include <locale.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <wchar.h>
#include <wctype.h>

#define WEAK __attribute__((weak))

WEAK struct lconv *localeconv(void) {
	static struct lconv c = {
		".", "", "", "", "", "", "", "", "", "", CHAR_MAX, CHAR_MAX, CHAR_MAX, CHAR_MAX,
		CHAR_MAX, CHAR_MAX, CHAR_MAX, CHAR_MAX, CHAR_MAX, CHAR_MAX, CHAR_MAX, CHAR_MAX, CHAR_MAX, CHAR_MAX,
	};
	return &c;
}

WEAK char *nl_langinfo(nl_item item) {
	static const char *const days[] = {"Sunday", "Monday", "Tuesday", "Wednesday", "Thursday", "Friday", "Saturday"};
	static const char *const months[] = {"January", "February", "March", "April", "May", "June", "July",
					     "August", "September", "October", "November", "December"};
	static __thread char abbrev[4];
	switch (item) {
	case CODESET:
		return "ANSI_X3.4-1968";
	case RADIXCHAR:
		return ".";
	case THOUSEP:
		return "";
	case D_T_FMT:
		return "%a %b %e %H:%M:%S %Y";
	case D_FMT:
		return "%m/%d/%y";
	case T_FMT:
		return "%H:%M:%S";
	case T_FMT_AMPM:
		return "%I:%M:%S %p";
	case AM_STR:
		return "AM";
	case PM_STR:
		return "PM";
	case YESEXPR:
		return "^[yY]";
	case NOEXPR:
		return "^[nN]";
	case CRNCYSTR:
		return "-";
	}
	if (item >= DAY_1 && item <= DAY_7)
		return (char *)days[item - DAY_1];
	if (item >= MON_1 && item <= MON_12)
		return (char *)months[item - MON_1];
	if (item >= ABDAY_1 && item <= ABDAY_7) {
		memcpy(abbrev, days[item - ABDAY_1], 3);
		return abbrev;
	}
	if (item >= ABMON_1 && item <= ABMON_12) {
		memcpy(abbrev, months[item - ABMON_1], 3);
		return abbrev;
	}
	return "";
}

/* One byte, one character. */
WEAK size_t mbrtowc(wchar_t *wc, const char *s, size_t n, mbstate_t *st) {
	if (!s)
		return 0;
	if (n == 0)
		return (size_t)-2;
	unsigned char c = *s;
	if (c > 0x7f) {
		errno = EILSEQ;
		return (size_t)-1;
	}
	if (wc)
		*wc = c;
	return c != 0;
}
WEAK size_t mbrlen(const char *s, size_t n, mbstate_t *st) { return mbrtowc(NULL, s, n, st); }
WEAK int mbtowc(wchar_t *wc, const char *s, size_t n) {
	if (!s)
		return 0; /* no shift states */
	size_t r = mbrtowc(wc, s, n, NULL);
	return r == (size_t)-2 ? -1 : (int)r;
}
WEAK int mblen(const char *s, size_t n) { return mbtowc(NULL, s, n); }
WEAK int mbsinit(const mbstate_t *st) { return 1; }
WEAK size_t wcrtomb(char *s, wchar_t wc, mbstate_t *st) {
	if (!s)
		return 1;
	if (wc < 0 || wc > 0x7f) {
		errno = EILSEQ;
		return (size_t)-1;
	}
	*s = (char)wc;
	return 1;
}
WEAK int wctomb(char *s, wchar_t wc) { return s ? (int)wcrtomb(s, wc, NULL) : 0; }
WEAK wint_t btowc(int c) { return c >= 0 && c <= 0x7f ? (wint_t)c : WEOF; }
WEAK int wctob(wint_t c) { return c <= 0x7f ? (int)c : EOF; }

WEAK size_t mbstowcs(wchar_t *dst, const char *src, size_t n) {
	size_t i = 0;
	for (; !dst || i < n; i++) {
		unsigned char c = src[i];
		if (c > 0x7f) {
			errno = EILSEQ;
			return (size_t)-1;
		}
		if (dst)
			dst[i] = c;
		if (!c)
			return i;
	}
	return i;
}
WEAK size_t wcstombs(char *dst, const wchar_t *src, size_t n) {
	size_t i = 0;
	for (; !dst || i < n; i++) {
		wchar_t c = src[i];
		if (c < 0 || c > 0x7f) {
			errno = EILSEQ;
			return (size_t)-1;
		}
		if (dst)
			dst[i] = (char)c;
		if (!c)
			return i;
	}
	return i;
}

/* ASCII's classes and case mappings for wide characters. */
#define ASCII(c) ((c) >= 0 && (c) <= 0x7f)
WEAK wint_t towupper(wint_t c) { return ASCII((int)c) ? (wint_t)toupper((int)c) : c; }
WEAK wint_t towlower(wint_t c) { return ASCII((int)c) ? (wint_t)tolower((int)c) : c; }
WEAK int iswalpha(wint_t c) { return ASCII((int)c) && isalpha((int)c); }
WEAK int iswdigit(wint_t c) { return ASCII((int)c) && isdigit((int)c); }
WEAK int iswalnum(wint_t c) { return ASCII((int)c) && isalnum((int)c); }
WEAK int iswspace(wint_t c) { return ASCII((int)c) && isspace((int)c); }
WEAK int iswupper(wint_t c) { return ASCII((int)c) && isupper((int)c); }
WEAK int iswlower(wint_t c) { return ASCII((int)c) && islower((int)c); }
WEAK int iswpunct(wint_t c) { return ASCII((int)c) && ispunct((int)c); }
WEAK int iswprint(wint_t c) { return ASCII((int)c) && isprint((int)c); }
WEAK int iswxdigit(wint_t c) { return ASCII((int)c) && isxdigit((int)c); }

/* Wide strings. */
WEAK size_t wcslen(const wchar_t *s) {
	size_t n = 0;
	while (s[n])
		n++;
	return n;
}
WEAK wchar_t *wcscpy(wchar_t *d, const wchar_t *s) {
	wchar_t *r = d;
	while ((*d++ = *s++))
		;
	return r;
}
WEAK wchar_t *wcsncpy(wchar_t *d, const wchar_t *s, size_t n) {
	size_t i = 0;
	for (; i < n && s[i]; i++)
		d[i] = s[i];
	for (; i < n; i++)
		d[i] = 0;
	return d;
}
WEAK wchar_t *wcscat(wchar_t *d, const wchar_t *s) {
	wcscpy(d + wcslen(d), s);
	return d;
}
WEAK int wcscmp(const wchar_t *a, const wchar_t *b) {
	while (*a && *a == *b) {
		a++;
		b++;
	}
	return *a < *b ? -1 : *a > *b;
}
WEAK int wcsncmp(const wchar_t *a, const wchar_t *b, size_t n) {
	for (; n > 0; n--, a++, b++) {
		if (*a != *b)
			return *a < *b ? -1 : 1;
		if (!*a)
			return 0;
	}
	return 0;
}
WEAK wchar_t *wcschr(const wchar_t *s, wchar_t c) {
	for (;; s++) {
		if (*s == c)
			return (wchar_t *)s;
		if (!*s)
			return NULL;
	}
}
WEAK wchar_t *wcsrchr(const wchar_t *s, wchar_t c) {
	const wchar_t *found = NULL;
	for (;; s++) {
		if (*s == c)
			found = s;
		if (!*s)
			return (wchar_t *)found;
	}
}
WEAK wchar_t *wcsdup(const wchar_t *s) {
	size_t n = wcslen(s) + 1;
	wchar_t *d = malloc(n * sizeof *d);
	return d ? memcpy(d, s, n * sizeof *d) : NULL;
}
WEAK wchar_t *wmemcpy(wchar_t *d, const wchar_t *s, size_t n) { return memcpy(d, s, n * sizeof *d); }
WEAK wchar_t *wmemmove(wchar_t *d, const wchar_t *s, size_t n) { return memmove(d, s, n * sizeof *d); }
WEAK wchar_t *wmemset(wchar_t *d, wchar_t c, size_t n) {
	for (size_t i = 0; i < n; i++)
		d[i] = c;
	return d;
}

WEAK iconv_t iconv_open(const char *to, const char *from) {
	errno = EINVAL;
	return (iconv_t)-1;
}
WEAK size_t iconv(iconv_t cd, char **in, size_t *inleft, char **out, size_t *outleft) {
	errno = EBADF;
	return (size_t)-1;
}
WEAK int iconv_close(iconv_t cd) {
	errno = EBADF;
	return -1;
}

/* MB_CUR_MAX is a call in glibc's headers: one byte a character here. */
WEAK size_t __ctype_get_mb_cur_max(void) { return 1; }

/* swprintf and vswprintf format through vsnprintf: the wide format (ASCII
 * in practice) is narrowed and the result widened back, both in UTF-8,
 * which is how augur's printf writes %ls and %lc, so that every wide
 * character of an argument comes back as it was. A result of n wide
 * characters or more is -1, as glibc's, with what fits written. */
static size_t toUTF8(char *out, unsigned c) {
	if (c < 0x80) {
		out[0] = (char)c;
		return 1;
	}
	if (c < 0x800) {
		out[0] = (char)(0xc0 | c >> 6);
		out[1] = (char)(0x80 | (c & 0x3f));
		return 2;
	}
	if (c < 0x10000) {
		out[0] = (char)(0xe0 | c >> 12);
		out[1] = (char)(0x80 | (c >> 6 & 0x3f));
		out[2] = (char)(0x80 | (c & 0x3f));
		return 3;
	}
	out[0] = (char)(0xf0 | (c >> 18 & 0x07));
	out[1] = (char)(0x80 | (c >> 12 & 0x3f));
	out[2] = (char)(0x80 | (c >> 6 & 0x3f));
	out[3] = (char)(0x80 | (c & 0x3f));
	return 4;
}

/* fromUTF8 decodes the character at s into *c and returns its length; a
 * byte that starts no character stands for itself. */
static size_t fromUTF8(const char *s, wchar_t *c) {
	const unsigned char *u = (const unsigned char *)s;
	size_t n = u[0] >= 0xf0 ? 4 : u[0] >= 0xe0 ? 3 : u[0] >= 0xc0 ? 2 : 1;
	unsigned v = n == 1 ? u[0] : u[0] & (0x7f >> n);
	for (size_t i = 1; i < n; i++) {
		if ((u[i] & 0xc0) != 0x80) {
			*c = u[0];
			return 1;
		}
		v = v << 6 | (u[i] & 0x3f);
	}
	*c = (wchar_t)v;
	return n;
}

WEAK int vswprintf(wchar_t *restrict ws, size_t n, const wchar_t *restrict fmt, va_list ap) {
	size_t fl = wcslen(fmt), k = 0;
	char *nf = malloc(fl * 4 + 1);
	if (!nf)
		return -1;
	for (size_t i = 0; i < fl; i++)
		k += toUTF8(nf + k, (unsigned)fmt[i]);
	nf[k] = 0;
	va_list cp;
	va_copy(cp, ap);
	int len = vsnprintf(NULL, 0, nf, cp);
	va_end(cp);
	char *buf = len < 0 ? NULL : malloc((size_t)len + 1);
	if (!buf) {
		free(nf);
		return -1;
	}
	vsnprintf(buf, (size_t)len + 1, nf, ap);
	free(nf);
	int out = 0;
	const char *p = buf;
	for (; *p && (size_t)out + 1 < n; out++)
		p += fromUTF8(p, &ws[out]);
	if (n > 0)
		ws[out] = 0;
	int fits = *p == 0 && n > 0;
	free(buf);
	return fits ? out : -1;
}

WEAK int swprintf(wchar_t *restrict ws, size_t n, const wchar_t *restrict fmt, ...) {
	va_list ap;
	va_start(ap, fmt);
	int r = vswprintf(ws, n, fmt, ap);
	va_end(ap);
	return r;
}

/* The wide number conversions narrow the string's leading ASCII (all a
 * number can be) and convert that, so the end the narrow conversion finds
 * is at the same index of the wide string. */
static char *narrowASCII(const wchar_t *s) {
	size_t n = 0;
	while (s[n] > 0 && s[n] < 0x80)
		n++;
	char *b = malloc(n + 1);
	if (b) {
		for (size_t i = 0; i < n; i++)
			b[i] = (char)s[i];
		b[n] = 0;
	}
	return b;
}

#define WIDE_INT(name, narrow, T)                                                                  \
	WEAK T name(const wchar_t *restrict s, wchar_t **restrict end, int base) {                 \
		char *b = narrowASCII(s), *e = b;                                                  \
		T v = b ? narrow(b, &e, base) : 0;                                                 \
		if (end)                                                                           \
			*end = (wchar_t *)s + (e - b);                                             \
		free(b);                                                                           \
		return v;                                                                          \
	}
#define WIDE_FLOAT(name, narrow, T)                                                                \
	WEAK T name(const wchar_t *restrict s, wchar_t **restrict end) {                           \
		char *b = narrowASCII(s), *e = b;                                                  \
		T v = b ? narrow(b, &e) : 0;                                                       \
		if (end)                                                                           \
			*end = (wchar_t *)s + (e - b);                                             \
		free(b);                                                                           \
		return v;                                                                          \
	}
WIDE_INT(wcstol, strtol, long)
WIDE_INT(wcstoul, strtoul, unsigned long)
WIDE_INT(wcstoll, strtoll, long long)
WIDE_INT(wcstoull, strtoull, unsigned long long)
WIDE_FLOAT(wcstod, strtod, double)
WIDE_FLOAT(wcstof, strtof, float)
WIDE_FLOAT(wcstold, strtold, long double)
