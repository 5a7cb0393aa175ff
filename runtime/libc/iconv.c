/* iconv between the encodings glibc builds in that text code converts
 * most: UTF-8, ISO-8859-1 (LATIN1), ASCII, UTF-16 and UTF-32 (either byte
 * order, or with a byte-order mark: written little-endian, and read
 * little-endian unless a mark says otherwise) and WCHAR_T. A conversion
 * stops where glibc's does: before a character the target lacks or an
 * invalid sequence (EILSEQ), before input that ends within a character
 * (EINVAL, the bytes left for the next call), before a character that does
 * not fit (E2BIG). Other names, and the //TRANSLIT and //IGNORE suffixes
 * (whose replacements follow glibc's locale tables), open nothing
 * (EINVAL). Linked only into programs that include <iconv.h>. */
#include <ctype.h>
#include <errno.h>
#include <iconv.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#define WEAK __attribute__((weak))

size_t __augur_utf8_put(char *s, unsigned c); /* locale.c */

enum encoding { UTF8, LATIN1, ASCII, UTF16, UTF16LE, UTF16BE, UTF32, UTF32LE, UTF32BE };

struct converter {
	enum encoding from, to;
	int big_endian_in; /* a UTF16 or UTF32 input's order, once its mark was read */
	int read_mark;     /* the input's first character was looked at for a mark */
	int wrote_mark;    /* the output's mark is written */
};

static const struct {
	const char *name; /* upper case, without dashes and underscores */
	enum encoding enc;
} names[] = {
	{"UTF8", UTF8},       {"ISO88591", LATIN1},  {"LATIN1", LATIN1},     {"L1", LATIN1},
	{"ASCII", ASCII},     {"USASCII", ASCII},    {"ANSIX3.41968", ASCII}, {"UTF16", UTF16},
	{"UTF16LE", UTF16LE}, {"UTF16BE", UTF16BE},  {"UTF32", UTF32},       {"UTF32LE", UTF32LE},
	{"UTF32BE", UTF32BE}, {"WCHART", UTF32LE},
};

static int lookup(const char *name, enum encoding *enc) {
	char norm[32];
	size_t k = 0;
	for (const char *p = name; *p; p++) {
		if (*p == '-' || *p == '_')
			continue;
		if (k == sizeof norm - 1)
			return 0;
		norm[k++] = (char)toupper((unsigned char)*p);
	}
	norm[k] = 0;
	for (size_t i = 0; i < sizeof names / sizeof *names; i++)
		if (strcmp(norm, names[i].name) == 0) {
			*enc = names[i].enc;
			return 1;
		}
	return 0;
}

WEAK iconv_t iconv_open(const char *to, const char *from) {
	struct converter c = {0};
	if (!lookup(to, &c.to) || !lookup(from, &c.from)) {
		errno = EINVAL;
		return (iconv_t)-1;
	}
	struct converter *cd = malloc(sizeof *cd);
	if (!cd) {
		errno = ENOMEM;
		return (iconv_t)-1;
	}
	*cd = c;
	return (iconv_t)cd;
}

WEAK int iconv_close(iconv_t cd) {
	free(cd);
	return 0;
}

/* The results of reading and writing a character, beside a length. */
enum { BAD = -1, SHORT = -2 };

static unsigned get16(const unsigned char *p, int be) { return be ? (unsigned)p[0] << 8 | p[1] : (unsigned)p[1] << 8 | p[0]; }
static uint32_t get32(const unsigned char *p, int be) {
	return be ? (uint32_t)p[0] << 24 | (uint32_t)p[1] << 16 | (uint32_t)p[2] << 8 | p[3]
		  : (uint32_t)p[3] << 24 | (uint32_t)p[2] << 16 | (uint32_t)p[1] << 8 | p[0];
}

static int is_surrogate(uint32_t c) { return c >= 0xd800 && c <= 0xdfff; }

static int read_utf8(const unsigned char *p, size_t n, uint32_t *c) {
	static const uint32_t least[] = {0, 0, 0x80, 0x800, 0x10000};
	int len = p[0] < 0x80 ? 1 : p[0] < 0xc2 ? 0 : p[0] < 0xe0 ? 2 : p[0] < 0xf0 ? 3 : p[0] < 0xf5 ? 4 : 0;
	if (!len)
		return BAD;
	uint32_t v = len == 1 ? p[0] : p[0] & (0x7f >> len);
	for (int i = 1; i < len; i++) {
		if ((size_t)i >= n)
			return SHORT;
		if ((p[i] & 0xc0) != 0x80)
			return BAD;
		v = v << 6 | (p[i] & 0x3f);
	}
	if (v < least[len] || v > 0x10ffff || is_surrogate(v))
		return BAD;
	*c = v;
	return len;
}

/* read_char reads the character at p (n bytes left) into *c and returns
 * its length, 0 for a byte-order mark read and dropped, BAD or SHORT. */
static int read_char(struct converter *cd, const unsigned char *p, size_t n, uint32_t *c) {
	switch (cd->from) {
	case UTF8:
		return read_utf8(p, n, c);
	case LATIN1:
		*c = p[0];
		return 1;
	case ASCII:
		*c = p[0];
		return p[0] < 0x80 ? 1 : BAD;
	case UTF16:
	case UTF16LE:
	case UTF16BE: {
		if (n < 2)
			return SHORT;
		int be = cd->from == UTF16BE || (cd->from == UTF16 && cd->big_endian_in);
		unsigned u = get16(p, be);
		if (cd->from == UTF16 && !cd->read_mark) {
			cd->read_mark = 1;
			if (u == 0xfeff || u == 0xfffe) {
				cd->big_endian_in = u == 0xfffe;
				return 0;
			}
		}
		if (u >= 0xdc00 && u <= 0xdfff)
			return BAD;
		if (u < 0xd800 || u > 0xdbff) {
			*c = u;
			return 2;
		}
		if (n < 4)
			return SHORT;
		unsigned lo = get16(p + 2, be);
		if (lo < 0xdc00 || lo > 0xdfff)
			return BAD;
		*c = 0x10000 + ((u - 0xd800) << 10) + (lo - 0xdc00);
		return 4;
	}
	default: { /* UTF-32 */
		if (n < 4)
			return SHORT;
		int be = cd->from == UTF32BE || (cd->from == UTF32 && cd->big_endian_in);
		uint32_t u = get32(p, be);
		if (cd->from == UTF32 && !cd->read_mark) {
			cd->read_mark = 1;
			if (u == 0xfeff || u == 0xfffe0000) {
				cd->big_endian_in = u == 0xfffe0000;
				return 0;
			}
		}
		if (u > 0x10ffff || is_surrogate(u))
			return BAD;
		*c = u;
		return 4;
	}
	}
}

static void put16(unsigned char *p, unsigned v, int be) {
	p[be ? 0 : 1] = (unsigned char)(v >> 8);
	p[be ? 1 : 0] = (unsigned char)v;
}
static void put32(unsigned char *p, uint32_t v, int be) {
	for (int i = 0; i < 4; i++)
		p[be ? 3 - i : i] = (unsigned char)(v >> (8 * i));
}

/* write_char writes c (with the output's byte-order mark first, where it
 * has one not yet written) into the room bytes at p and returns how many
 * it wrote: BAD when the target lacks c, SHORT when it does not fit. */
static int write_char(struct converter *cd, unsigned char *p, size_t room, uint32_t c) {
	unsigned char b[8];
	int n = 0;
	switch (cd->to) {
	case UTF8: /* c is at most 0x10ffff and no surrogate: read_char saw to it */
		n = (int)__augur_utf8_put((char *)b, c);
		break;
	case LATIN1:
	case ASCII:
		if (c > (cd->to == ASCII ? 0x7fu : 0xffu))
			return BAD;
		b[n++] = (unsigned char)c;
		break;
	case UTF16:
	case UTF16LE:
	case UTF16BE: {
		int be = cd->to == UTF16BE;
		if (cd->to == UTF16 && !cd->wrote_mark) {
			put16(b, 0xfeff, 0);
			n = 2;
		}
		if (c < 0x10000) {
			put16(b + n, c, be);
			n += 2;
		} else {
			put16(b + n, 0xd800 + ((c - 0x10000) >> 10), be);
			put16(b + n + 2, 0xdc00 + ((c - 0x10000) & 0x3ff), be);
			n += 4;
		}
		break;
	}
	default: /* UTF-32 */
		if (cd->to == UTF32 && !cd->wrote_mark) {
			put32(b, 0xfeff, 0);
			n = 4;
		}
		put32(b + n, c, cd->to == UTF32BE);
		n += 4;
	}
	if ((size_t)n > room)
		return SHORT;
	memcpy(p, b, (size_t)n);
	cd->wrote_mark = 1;
	return n;
}

WEAK size_t iconv(iconv_t handle, char **in, size_t *inleft, char **out, size_t *outleft) {
	struct converter *cd = (struct converter *)handle;
	if (!in || !*in)
		return 0; /* these encodings keep no shift state to flush */
	while (*inleft > 0) {
		uint32_t c = 0;
		int r = read_char(cd, (const unsigned char *)*in, *inleft, &c);
		if (r == BAD || r == SHORT) {
			errno = r == BAD ? EILSEQ : EINVAL;
			return (size_t)-1;
		}
		if (r > 0) {
			int w = write_char(cd, (unsigned char *)*out, *outleft, c);
			if (w < 0) {
				errno = w == BAD ? EILSEQ : E2BIG;
				return (size_t)-1;
			}
			*out += w;
			*outleft -= (size_t)w;
		}
		*in += r ? r : 2 + 2 * (cd->from == UTF32); /* a mark is 2 or 4 bytes */
		*inleft -= r ? (size_t)r : 2 + 2 * (size_t)(cd->from == UTF32);
	}
	return 0;
}
