/* The locales a Debian system has without locales installed: "C" (also
 * named "POSIX") and C.UTF-8 (also C.utf8), set by category as glibc's
 * setlocale sets them, "" reading LC_ALL, LC_<category> and LANG from the
 * environment (augur's default environment has LANG=C.UTF-8). localeconv
 * and nl_langinfo describe them (they differ only in the codeset); the
 * multibyte functions convert ASCII in "C" (a byte past 0x7f is EILSEQ, as
 * glibc's C locale says) and UTF-8 in C.UTF-8, as glibc's decoder does
 * (sequences of up to six bytes, to 0x7fffffff; overlong forms and
 * surrogates refused); wcwidth and the wide-character classes and case
 * mappings are ASCII's in "C" and cover the main scripts in C.UTF-8
 * (below). iconv is in iconv.c. */
#define _GNU_SOURCE
#include <ctype.h>
#include <errno.h>
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

/* The categories' names, by glibc's category numbers (LC_ALL, 6, has
 * none of its own); "" stands for "C". The setting is the program's to
 * order: setlocale is MT-Unsafe, so a thread that converts while another
 * sets the locale races with it, here as natively. */
#define NCATEGORIES 13
#define NAME_MAX_LEN 32
static char locale_names[NCATEGORIES][NAME_MAX_LEN];
static int ctype_utf8; /* LC_CTYPE is C.UTF-8 */

static const char *const category_vars[NCATEGORIES] = {
	"LC_CTYPE", "LC_NUMERIC", "LC_TIME", "LC_COLLATE", "LC_MONETARY", "LC_MESSAGES", "LC_ALL",
	"LC_PAPER", "LC_NAME", "LC_ADDRESS", "LC_TELEPHONE", "LC_MEASUREMENT", "LC_IDENTIFICATION",
};

static const char *name_of(int cat) { return locale_names[cat][0] ? locale_names[cat] : "C"; }

/* is_utf8_name reports whether name is C.UTF-8 under one of the spellings
 * glibc's codeset normalization takes (case and dashes aside: utf8). */
static int is_utf8_name(const char *name) {
	if (strncmp(name, "C.", 2) != 0)
		return 0;
	char norm[8];
	size_t k = 0;
	for (const char *p = name + 2; *p; p++) {
		if (*p == '-')
			continue;
		if (k == sizeof norm - 1)
			return 0;
		norm[k++] = (char)tolower((unsigned char)*p);
	}
	norm[k] = 0;
	return strcmp(norm, "utf8") == 0;
}

/* canonical is the name setlocale gives a known locale (POSIX is "C", a
 * UTF-8 spelling stays as written), NULL for a locale this system lacks. */
static const char *canonical(const char *name) {
	if (strcmp(name, "C") == 0 || strcmp(name, "POSIX") == 0)
		return "C";
	if (strlen(name) < NAME_MAX_LEN && is_utf8_name(name))
		return name;
	return NULL;
}

/* from_environment is the locale "" selects for category cat. */
static const char *from_environment(int cat) {
	const char *v = getenv("LC_ALL");
	if (!v || !*v)
		v = getenv(category_vars[cat]);
	if (!v || !*v)
		v = getenv("LANG");
	return v && *v ? v : "C";
}

static void set_category(int cat, const char *name) {
	strcpy(locale_names[cat], strcmp(name, "C") == 0 ? "" : name);
	if (cat == LC_CTYPE)
		ctype_utf8 = name[0] != 'C' || name[1] != 0;
}

/* all_names is LC_ALL's name: the one every category has, or glibc's
 * list of each category's. */
static char *all_names(void) {
	static char all[NCATEGORIES * (NAME_MAX_LEN + 20)];
	int same = 1;
	for (int c = 0; c < NCATEGORIES; c++)
		if (c != LC_ALL && strcmp(name_of(c), name_of(LC_CTYPE)) != 0)
			same = 0;
	if (same) {
		strcpy(all, name_of(LC_CTYPE));
		return all;
	}
	size_t k = 0;
	for (int c = 0; c < NCATEGORIES; c++)
		if (c != LC_ALL)
			k += (size_t)sprintf(all + k, "%s%s=%s", k ? ";" : "", category_vars[c], name_of(c));
	return all;
}

/* set_all sets every category from a list as all_names writes it
 * ("LC_CTYPE=C.UTF-8;LC_NUMERIC=C;..."), which programs save and restore;
 * nothing changes unless every name in it is known. */
static char *set_all(const char *list) {
	const char *names[NCATEGORIES] = {0};
	char buf[NCATEGORIES][NAME_MAX_LEN];
	for (const char *p = list; *p;) {
		const char *eq = strchr(p, '='), *end = strchr(p, ';');
		if (!end)
			end = p + strlen(p);
		if (!eq || eq > end)
			return NULL;
		int cat = -1;
		for (int c = 0; c < NCATEGORIES; c++)
			if (c != LC_ALL && strlen(category_vars[c]) == (size_t)(eq - p) && strncmp(p, category_vars[c], (size_t)(eq - p)) == 0)
				cat = c;
		size_t n = (size_t)(end - eq - 1);
		if (cat < 0 || n >= NAME_MAX_LEN)
			return NULL;
		memcpy(buf[cat], eq + 1, n);
		buf[cat][n] = 0;
		if (!(names[cat] = canonical(buf[cat])))
			return NULL;
		p = *end ? end + 1 : end;
	}
	for (int c = 0; c < NCATEGORIES; c++)
		if (names[c])
			set_category(c, names[c]);
	return all_names();
}

WEAK char *setlocale(int category, const char *name) {
	if (category < 0 || category >= NCATEGORIES) {
		errno = EINVAL;
		return NULL;
	}
	if (!name)
		return category == LC_ALL ? all_names() : (char *)name_of(category);
	if (category != LC_ALL) {
		const char *n = canonical(*name ? name : from_environment(category));
		if (!n)
			return NULL;
		set_category(category, n);
		return (char *)name_of(category);
	}
	if (strchr(name, '='))
		return set_all(name);
	const char *names[NCATEGORIES];
	for (int c = 0; c < NCATEGORIES; c++)
		if (c != LC_ALL && !(names[c] = canonical(*name ? name : from_environment(c))))
			return NULL;
	for (int c = 0; c < NCATEGORIES; c++)
		if (c != LC_ALL)
			set_category(c, names[c]);
	return all_names();
}

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
		return ctype_utf8 ? "UTF-8" : "ANSI_X3.4-1968";
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

/* The conversions of a character keep a partial UTF-8 sequence in glibc's
 * mbstate_t: __count holds the bytes still to come and, from bit 8, the
 * sequence's length; __value.__wch the bits so far. */
static size_t ilseq(mbstate_t *st) {
	memset(st, 0, sizeof *st);
	errno = EILSEQ;
	return (size_t)-1;
}

/* utf8_len is the length of the sequence lead starts, with its bits in
 * *v; 0 for a byte that starts none (a continuation byte, the overlong
 * leads 0xc0 and 0xc1, 0xfe and 0xff). */
static int utf8_len(unsigned char lead, unsigned *v) {
	static const unsigned char limits[] = {0xe0, 0xf0, 0xf8, 0xfc, 0xfe};
	if (lead < 0xc2 || lead >= 0xfe)
		return 0;
	int n = 2;
	while (lead >= limits[n - 2])
		n++;
	*v = lead & (0x7fu >> n);
	return n;
}

/* utf8_min is the least character a sequence of n bytes may hold: one
 * below it is overlong. */
static unsigned utf8_min(int n) { return n == 2 ? 0x80 : 1u << (5 * n - 4); }

size_t __augur_utf8_mbrtowc(wchar_t *wc, const char *s, size_t n, mbstate_t *st);

WEAK size_t mbrtowc(wchar_t *wc, const char *s, size_t n, mbstate_t *st) {
	static mbstate_t own;
	if (!st)
		st = &own;
	if (!s) {
		wc = NULL;
		s = "";
		n = 1;
	}
	if (n == 0)
		return (size_t)-2;
	const unsigned char *u = (const unsigned char *)s;
	if (!ctype_utf8) {
		if (u[0] > 0x7f)
			return ilseq(st);
		if (wc)
			*wc = u[0];
		return u[0] != 0;
	}
	return __augur_utf8_mbrtowc(wc, s, n, st);
}

/* __augur_utf8_mbrtowc is mbrtowc in UTF-8 whatever the locale, for s of
 * n > 0 bytes and a state: the wide streams (wstdio.c) decode with it in
 * the codec they took when they turned wide. */
size_t __augur_utf8_mbrtowc(wchar_t *wc, const char *s, size_t n, mbstate_t *st) {
	const unsigned char *u = (const unsigned char *)s;
	if (st->__count == 0 && u[0] < 0x80) {
		if (wc)
			*wc = u[0];
		return u[0] != 0;
	}
	unsigned v;
	int need, len;
	size_t i = 0;
	if (st->__count == 0) {
		if (!(len = utf8_len(u[i++], &v)))
			return ilseq(st);
		need = len - 1;
	} else {
		need = st->__count & 0xff;
		len = st->__count >> 8;
		v = st->__value.__wch;
	}
	for (; need > 0 && i < n; i++, need--) {
		if ((u[i] & 0xc0) != 0x80)
			return ilseq(st);
		v = v << 6 | (u[i] & 0x3f);
	}
	if (need > 0) {
		st->__count = need | len << 8;
		st->__value.__wch = v;
		return (size_t)-2;
	}
	if (v < utf8_min(len) || (v >= 0xd800 && v <= 0xdfff))
		return ilseq(st);
	if (st->__count) /* a character begun in this call leaves the state as it was */
		st->__count = 0;
	if (wc)
		*wc = (wchar_t)v;
	return v ? i : 0;
}
WEAK size_t mbrlen(const char *s, size_t n, mbstate_t *st) {
	static mbstate_t own;
	return mbrtowc(NULL, s, n, st ? st : &own);
}
WEAK int mbtowc(wchar_t *wc, const char *s, size_t n) {
	static mbstate_t own;
	if (!s) {
		memset(&own, 0, sizeof own);
		return 0; /* no shift states */
	}
	size_t r = mbrtowc(wc, s, n, &own);
	return r == (size_t)-2 ? -1 : (int)r;
}
/* mblen starts from the initial state at every call, as glibc's does
 * (mbtowc keeps its state between calls). */
WEAK int mblen(const char *s, size_t n) {
	if (!s)
		return 0;
	mbstate_t st = {0};
	size_t r = mbrtowc(NULL, s, n, &st);
	return r == (size_t)-2 ? -1 : (int)r;
}
WEAK int mbsinit(const mbstate_t *st) { return !st || st->__count == 0; }

/* __augur_utf8_put writes c in UTF-8 and returns its length: up to six
 * bytes, as glibc writes values to 0x7fffffff. It checks nothing (a
 * surrogate is written as any other value): wcrtomb refuses what glibc
 * refuses first. swprintf and iconv (iconv.c) write with it too. */
size_t __augur_utf8_put(char *s, unsigned c) {
	if (c < 0x80) {
		s[0] = (char)c;
		return 1;
	}
	int n = 2;
	while (n < 6 && c >= utf8_min(n + 1))
		n++;
	for (int i = n - 1; i > 0; i--, c >>= 6)
		s[i] = (char)(0x80 | (c & 0x3f));
	s[0] = (char)((0xff00 >> n) | c);
	return (size_t)n;
}

WEAK size_t wcrtomb(char *s, wchar_t wc, mbstate_t *st) {
	static mbstate_t own;
	char buf[8];
	if (!st)
		st = &own;
	if (!s) {
		s = buf;
		wc = 0;
	}
	if (!ctype_utf8) {
		if (wc < 0 || wc > 0x7f)
			return ilseq(st);
		*s = (char)wc;
		return 1;
	}
	unsigned c = (unsigned)wc;
	if ((c >= 0xd800 && c <= 0xdfff) || c > 0x7fffffff)
		return ilseq(st);
	return __augur_utf8_put(s, c);
}
WEAK int wctomb(char *s, wchar_t wc) {
	static mbstate_t own;
	return s ? (int)wcrtomb(s, wc, &own) : 0;
}
WEAK wint_t btowc(int c) { return c >= 0 && c <= 0x7f ? (wint_t)c : WEOF; }
WEAK int wctob(wint_t c) { return c <= 0x7f ? (int)c : EOF; }

/* The string conversions convert a character at a time. Converting into
 * dst, they stop at its n wide characters (bytes), leave *src at the first
 * not converted, or NULL past the terminator; without dst they count. */
WEAK size_t mbsnrtowcs(wchar_t *dst, const char **src, size_t nms, size_t n, mbstate_t *st) {
	static mbstate_t own;
	if (!st)
		st = &own;
	const char *s = *src;
	size_t k = 0;
	for (; !dst || k < n; k++) {
		wchar_t c;
		size_t r = mbrtowc(&c, s, nms, st);
		if (r == (size_t)-1) {
			if (dst)
				*src = s;
			return r;
		}
		if (r == (size_t)-2) { /* the input ended within a character */
			s += nms;
			break;
		}
		if (dst)
			dst[k] = c;
		if (r == 0) {
			if (dst)
				*src = NULL;
			return k;
		}
		s += r;
		nms -= r;
	}
	if (dst)
		*src = s;
	return k;
}
WEAK size_t mbsrtowcs(wchar_t *dst, const char **src, size_t n, mbstate_t *st) {
	return mbsnrtowcs(dst, src, (size_t)-1, n, st);
}
WEAK size_t mbstowcs(wchar_t *dst, const char *src, size_t n) {
	mbstate_t st = {0};
	return mbsrtowcs(dst, &src, n, &st);
}

WEAK size_t wcsnrtombs(char *dst, const wchar_t **src, size_t nwc, size_t n, mbstate_t *st) {
	static mbstate_t own;
	if (!st)
		st = &own;
	const wchar_t *s = *src;
	size_t k = 0;
	for (; nwc > 0; s++, nwc--) {
		char buf[8];
		size_t r = wcrtomb(buf, *s, st);
		if (r == (size_t)-1) {
			if (dst)
				*src = s;
			return r;
		}
		if (dst && k + r > n)
			break; /* a character that does not fit whole is left */
		if (*s == 0) {
			if (dst) {
				dst[k] = 0;
				*src = NULL;
			}
			return k;
		}
		if (dst)
			memcpy(dst + k, buf, r);
		k += r;
	}
	if (dst)
		*src = s;
	return k;
}
WEAK size_t wcsrtombs(char *dst, const wchar_t **src, size_t n, mbstate_t *st) {
	return wcsnrtombs(dst, src, (size_t)-1, n, st);
}
WEAK size_t wcstombs(char *dst, const wchar_t *src, size_t n) {
	mbstate_t st = {0};
	return wcsrtombs(dst, &src, n, &st);
}

/* The columns a character takes on a terminal: in "C" ASCII's printable
 * characters one, the rest -1; in C.UTF-8 also the main blocks of
 * combining marks, zero-width and format characters none, and the main
 * East Asian wide and fullwidth blocks (CJK, Hangul, kana, fullwidth
 * forms, the emoji blocks) two. glibc's tables follow every Unicode
 * property and give -1 to unassigned code points too: a character outside
 * these blocks can differ (docs/libc.md). */
struct width_range {
	unsigned lo, hi;
};
static const struct width_range zero_width[] = {
	{0x0300, 0x036f}, {0x0483, 0x0489}, {0x0591, 0x05bd}, {0x0610, 0x061a}, {0x064b, 0x065f},
	{0x0670, 0x0670}, {0x06d6, 0x06dc}, {0x06df, 0x06e4}, {0x0e31, 0x0e31}, {0x0e34, 0x0e3a},
	{0x0e47, 0x0e4e}, {0x1160, 0x11ff}, {0x1ab0, 0x1aff}, {0x1dc0, 0x1dff}, {0x200b, 0x200f},
	{0x2028, 0x202e}, {0x2060, 0x2064}, {0x20d0, 0x20f0}, {0x302a, 0x302d}, {0x3099, 0x309a},
	{0xfe00, 0xfe0f}, {0xfe20, 0xfe2f}, {0xfeff, 0xfeff}, {0xe0001, 0xe0001},
	{0xe0020, 0xe007f}, {0xe0100, 0xe01ef},
};
static const struct width_range double_width[] = {
	{0x1100, 0x115f}, {0x231a, 0x231b}, {0x2329, 0x232a}, {0x2e80, 0x303e}, {0x3041, 0x3247},
	{0x3250, 0x4dbf}, {0x4e00, 0xa4cf}, {0xa960, 0xa97c}, {0xac00, 0xd7a3}, {0xf900, 0xfaff},
	{0xfe10, 0xfe19}, {0xfe30, 0xfe6f}, {0xff01, 0xff60}, {0xffe0, 0xffe6}, {0x16fe0, 0x16fe4},
	{0x16ff0, 0x16ff1}, {0x17000, 0x18cd5}, {0x18d00, 0x18d08}, {0x1aff0, 0x1b2fb}, {0x1f004, 0x1f004},
	{0x1f0cf, 0x1f0cf}, {0x1f18e, 0x1f18e}, {0x1f191, 0x1f19a}, {0x1f200, 0x1f265}, {0x1f300, 0x1f320},
	{0x1f32d, 0x1f335}, {0x1f337, 0x1f37c}, {0x1f37e, 0x1f393}, {0x1f3a0, 0x1f3ca},
	{0x1f3cf, 0x1f3d3}, {0x1f3e0, 0x1f3f0}, {0x1f3f4, 0x1f3f4}, {0x1f3f8, 0x1f43e},
	{0x1f440, 0x1f440}, {0x1f442, 0x1f4fc}, {0x1f4ff, 0x1f53d}, {0x1f54b, 0x1f54e},
	{0x1f550, 0x1f567}, {0x1f57a, 0x1f57a}, {0x1f595, 0x1f596}, {0x1f5a4, 0x1f5a4},
	{0x1f5fb, 0x1f64f}, {0x1f680, 0x1f6c5}, {0x1f6cc, 0x1f6cc}, {0x1f6d0, 0x1f6d2},
	{0x1f6eb, 0x1f6ec}, {0x1f90c, 0x1f93a}, {0x1f93c, 0x1f945}, {0x1f947, 0x1f9ff},
	{0x20000, 0x2fffd}, {0x30000, 0x3fffd},
};

static int in_ranges(unsigned c, const struct width_range *r, size_t n) {
	size_t lo = 0, hi = n;
	while (lo < hi) {
		size_t mid = (lo + hi) / 2;
		if (c > r[mid].hi)
			lo = mid + 1;
		else if (c < r[mid].lo)
			hi = mid;
		else
			return 1;
	}
	return 0;
}

WEAK int wcwidth(wchar_t wc) {
	unsigned c = (unsigned)wc;
	if (c == 0)
		return 0;
	if (c < 0x20 || (c >= 0x7f && c < 0xa0))
		return -1;
	if (c < 0x7f)
		return 1;
	if (!ctype_utf8 || c > 0x10ffff || (c >= 0xd800 && c <= 0xdfff))
		return -1;
	if (in_ranges(c, zero_width, sizeof zero_width / sizeof *zero_width))
		return 0;
	return in_ranges(c, double_width, sizeof double_width / sizeof *double_width) ? 2 : 1;
}
WEAK int wcswidth(const wchar_t *s, size_t n) {
	int total = 0;
	for (size_t i = 0; i < n && s[i]; i++) {
		int w = wcwidth(s[i]);
		if (w < 0)
			return -1;
		total += w;
	}
	return total;
}

/* The wide-character classes and case mappings: ASCII's in "C"; in
 * C.UTF-8 also the case pairs of the main alphabets (Latin-1 and Latin
 * Extended, Greek, Coptic, Cyrillic, Armenian, Georgian, Glagolitic,
 * Cherokee, fullwidth Latin) and the letters of those and of Hebrew,
 * Arabic, kana, CJK and Hangul. glibc's tables follow
 * every Unicode property: a character outside these differs
 * (docs/libc.md). */
#define ASCII(c) ((c) >= 0 && (c) <= 0x7f)

/* A case run maps lo..hi, every step-th character, by delta (to upper
 * case; lower case is the inverse). */
struct case_run {
	unsigned lo, hi;
	int delta, step;
};
static const struct case_run to_upper[] = {
	{0xe0, 0xf6, -32, 1},       {0xf8, 0xfe, -32, 1},       {0xff, 0xff, 121, 1},       {0x101, 0x12f, -1, 2},
	{0x133, 0x137, -1, 2},      {0x13a, 0x148, -1, 2},      {0x14b, 0x177, -1, 2},      {0x17a, 0x17e, -1, 2},
	{0x183, 0x185, -1, 2},      {0x1a1, 0x1a5, -1, 2},      {0x1b4, 0x1b6, -1, 2},      {0x1ce, 0x1dc, -1, 2},
	{0x1df, 0x1ef, -1, 2},      {0x1f9, 0x21f, -1, 2},      {0x223, 0x233, -1, 2},      {0x247, 0x24f, -1, 2},
	{0x3ac, 0x3ac, -38, 1},     {0x3ad, 0x3af, -37, 1},     {0x3b1, 0x3c1, -32, 1},     {0x3c2, 0x3c2, -31, 1},
	{0x3c3, 0x3cb, -32, 1},     {0x3cc, 0x3cc, -64, 1},     {0x3cd, 0x3ce, -63, 1},     {0x3d9, 0x3ef, -1, 2},
	{0x430, 0x44f, -32, 1},     {0x450, 0x45f, -80, 1},     {0x461, 0x481, -1, 2},      {0x48b, 0x4bf, -1, 2},
	{0x4c2, 0x4ce, -1, 2},      {0x4d1, 0x52f, -1, 2},      {0x561, 0x586, -48, 1},     {0x10d0, 0x10fa, 3008, 1},
	{0x10fd, 0x10ff, 3008, 1},  {0x13f8, 0x13fd, -8, 1},    {0x1e01, 0x1e95, -1, 2},    {0x1ea1, 0x1eff, -1, 2},
	{0x1f00, 0x1f07, 8, 1},     {0x1f10, 0x1f15, 8, 1},     {0x1f20, 0x1f27, 8, 1},     {0x1f30, 0x1f37, 8, 1},
	{0x1f40, 0x1f45, 8, 1},     {0x1f51, 0x1f57, 8, 2},     {0x1f60, 0x1f67, 8, 1},     {0x2170, 0x217f, -16, 1},
	{0x24d0, 0x24e9, -26, 1},   {0x2c30, 0x2c5f, -48, 1},   {0x2c81, 0x2ce3, -1, 2},    {0x2d00, 0x2d25, -7264, 1},
	{0xa641, 0xa66d, -1, 2},    {0xa681, 0xa69b, -1, 2},    {0xa723, 0xa72f, -1, 2},    {0xa733, 0xa76f, -1, 2},
	{0xa77f, 0xa787, -1, 2},    {0xa797, 0xa7a9, -1, 2},    {0xa7b5, 0xa7c3, -1, 2},    {0xab70, 0xabbf, -38864, 1},
	{0xff41, 0xff5a, -32, 1},
};

static int case_of(unsigned c, int up) {
	for (size_t i = 0; i < sizeof to_upper / sizeof *to_upper; i++) {
		const struct case_run *r = &to_upper[i];
		unsigned lo = up ? r->lo : (unsigned)((int)r->lo + r->delta), hi = up ? r->hi : (unsigned)((int)r->hi + r->delta);
		if (c >= lo && c <= hi && (c - lo) % (unsigned)r->step == 0)
			return up ? r->delta : -r->delta;
	}
	return 0;
}

static const struct width_range letters[] = {
	{0xaa, 0xaa}, {0xb5, 0xb5}, {0xba, 0xba}, {0xc0, 0xd6}, {0xd8, 0xf6}, {0xf8, 0x2c1},
	{0x370, 0x374}, {0x376, 0x377}, {0x37b, 0x37d}, {0x386, 0x386}, {0x388, 0x3ff}, {0x400, 0x481},
	{0x48a, 0x52f}, {0x531, 0x556}, {0x561, 0x587}, {0x5d0, 0x5ea}, {0x620, 0x64a}, {0x66e, 0x6d3},
	{0x74d, 0x7b1}, {0x8f0, 0x93b}, {0xe01, 0xe3a}, {0x1000, 0x1036}, {0x1050, 0x109d}, {0x10fc, 0x1248},
	{0x12d8, 0x1310}, {0x1318, 0x135a}, {0x13a0, 0x13f5}, {0x1401, 0x166c}, {0x16a0, 0x16ea}, {0x1780, 0x17b3},
	{0x1820, 0x1878}, {0x18b0, 0x18f5}, {0x1a20, 0x1a5e}, {0x1b00, 0x1b33}, {0x1bac, 0x1be5}, {0x1c00, 0x1c36},
	{0x1d00, 0x1dbf}, {0x1e00, 0x1fff}, {0x2c00, 0x2ce4}, {0x2d30, 0x2d67}, {0x3041, 0x3096}, {0x30a1, 0x30fa},
	{0x3131, 0x318e}, {0x3400, 0x4dbf}, {0x4e00, 0x9fff}, {0xa000, 0xa48c}, {0xa500, 0xa60c}, {0xa67f, 0xa6ef},
	{0xa722, 0xa788}, {0xa78b, 0xa7ca}, {0xa880, 0xa8c3}, {0xaa00, 0xaa36}, {0xaa7a, 0xaabe}, {0xab70, 0xabea},
	{0xac00, 0xd7a3}, {0xf900, 0xfa6d}, {0xfa70, 0xfad9}, {0xfb46, 0xfbb1}, {0xfbd3, 0xfd3d}, {0xfd50, 0xfd8f},
	{0xfd92, 0xfdc7}, {0xfe76, 0xfefc}, {0xff21, 0xff3a}, {0xff41, 0xff5a}, {0xff66, 0xffbe},
};

/* wide_letter: a letter of the table, or one with a case (Georgian, the
 * roman numerals, the circled letters are letters to glibc too). */
static int wide_letter(unsigned c) {
	return ctype_utf8 && (in_ranges(c, letters, sizeof letters / sizeof *letters) || case_of(c, 1) || case_of(c, 0));
}

WEAK wint_t towupper(wint_t c) {
	if (ASCII((int)c))
		return (wint_t)toupper((int)c);
	return ctype_utf8 ? (wint_t)((int)c + case_of((unsigned)c, 1)) : c;
}
WEAK wint_t towlower(wint_t c) {
	if (ASCII((int)c))
		return (wint_t)tolower((int)c);
	return ctype_utf8 ? (wint_t)((int)c + case_of((unsigned)c, 0)) : c;
}
WEAK int iswalpha(wint_t c) { return ASCII((int)c) ? isalpha((int)c) != 0 : wide_letter((unsigned)c); }
WEAK int iswalnum(wint_t c) { return ASCII((int)c) ? isalnum((int)c) != 0 : wide_letter((unsigned)c); }
WEAK int iswupper(wint_t c) {
	return ASCII((int)c) ? isupper((int)c) != 0 : ctype_utf8 && case_of((unsigned)c, 0) != 0;
}
/* A lower-case letter has an upper case, or is one of Latin's lower-case
 * letters that have none (sharp s, kra, n preceded by apostrophe). */
WEAK int iswlower(wint_t c) {
	if (ASCII((int)c))
		return islower((int)c) != 0;
	return ctype_utf8 && (case_of((unsigned)c, 1) != 0 || c == 0xdf || c == 0x138 || c == 0x149);
}
WEAK int iswdigit(wint_t c) { return ASCII((int)c) && isdigit((int)c); }
WEAK int iswspace(wint_t c) { return ASCII((int)c) && isspace((int)c); }
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

/* MB_CUR_MAX is a call in glibc's headers: one byte a character in "C",
 * six in C.UTF-8, as glibc says. */
WEAK size_t __ctype_get_mb_cur_max(void) { return ctype_utf8 ? 6 : 1; }

/* swprintf and vswprintf format through vsnprintf: the wide format (ASCII
 * in practice) is narrowed and the result widened back, both in UTF-8,
 * which is how augur's printf writes %ls and %lc, so that every wide
 * character of an argument comes back as it was. A result of n wide
 * characters or more is -1, as glibc's, with what fits written. The wide
 * streams' printf (wstdio.c) formats the same way. */

/* __augur_utf8_get decodes the character at s into *c and returns its
 * length; a byte that starts no character stands for itself. */
size_t __augur_utf8_get(const char *s, wchar_t *c) {
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

/* __augur_wformat formats the wide format fmt with ap into a new UTF-8
 * string (the caller frees it), or returns NULL. */
char *__augur_wformat(const wchar_t *fmt, va_list ap) {
	size_t fl = wcslen(fmt), k = 0;
	char *nf = malloc(fl * 6 + 1); /* __augur_utf8_put writes up to six bytes */
	if (!nf)
		return NULL;
	for (size_t i = 0; i < fl; i++)
		k += __augur_utf8_put(nf + k, (unsigned)fmt[i]);
	nf[k] = 0;
	va_list cp;
	va_copy(cp, ap);
	int len = vsnprintf(NULL, 0, nf, cp);
	va_end(cp);
	char *buf = len < 0 ? NULL : malloc((size_t)len + 1);
	if (buf)
		vsnprintf(buf, (size_t)len + 1, nf, ap);
	free(nf);
	return buf;
}

WEAK int vswprintf(wchar_t *restrict ws, size_t n, const wchar_t *restrict fmt, va_list ap) {
	char *buf = __augur_wformat(fmt, ap);
	if (!buf)
		return -1;
	int out = 0;
	const char *p = buf;
	for (; *p && (size_t)out + 1 < n; out++)
		p += __augur_utf8_get(p, &ws[out]);
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
