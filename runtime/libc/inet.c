/* Byte order and address conversions of <arpa/inet.h>: pure computation,
 * in C like the rest of the runtime. The host is little-endian (x86-64). */
#include <arpa/inet.h>
#include <errno.h>
#include <stdio.h>
#include <string.h>

#define WEAK __attribute__((weak))

WEAK uint16_t htons(uint16_t x) { return (uint16_t)(x << 8 | x >> 8); }
WEAK uint16_t ntohs(uint16_t x) { return htons(x); }
WEAK uint32_t htonl(uint32_t x) {
	return x << 24 | (x & 0xff00) << 8 | (x >> 8 & 0xff00) | x >> 24;
}
WEAK uint32_t ntohl(uint32_t x) { return htonl(x); }

/* inet_aton accepts what glibc does: 1 to 4 parts, each decimal, octal
 * (leading 0) or hexadecimal (0x), the last filling the remaining bytes. */
WEAK int inet_aton(const char *s, struct in_addr *out) {
	unsigned long parts[4];
	int n = 0;
	for (;;) {
		if (n == 4)
			return 0;
		int base = 10;
		if (*s == '0') {
			base = 8;
			if (s[1] == 'x' || s[1] == 'X') {
				base = 16;
				s += 2;
			}
		}
		unsigned long v = 0;
		int digits = 0;
		for (;; s++, digits++) {
			int d;
			if (*s >= '0' && *s <= '9')
				d = *s - '0';
			else if (base == 16 && *s >= 'a' && *s <= 'f')
				d = *s - 'a' + 10;
			else if (base == 16 && *s >= 'A' && *s <= 'F')
				d = *s - 'A' + 10;
			else
				break;
			if (d >= base)
				return 0;
			v = v * base + d;
			if (v > 0xffffffffUL)
				return 0;
		}
		if (digits == 0 && base != 8)
			return 0;
		parts[n++] = v;
		if (*s != '.')
			break;
		s++;
	}
	if (*s != '\0' && *s != ' ' && *s != '\t' && *s != '\n')
		return 0;
	unsigned long addr = 0;
	static const unsigned long lastMax[] = {0xffffffffUL, 0xffffffUL, 0xffffUL, 0xffUL};
	for (int i = 0; i < n - 1; i++) {
		if (parts[i] > 0xff)
			return 0;
		addr |= parts[i] << (24 - 8 * i);
	}
	if (parts[n - 1] > lastMax[n - 1])
		return 0;
	addr |= parts[n - 1];
	if (out)
		out->s_addr = htonl((uint32_t)addr);
	return 1;
}

WEAK in_addr_t inet_addr(const char *s) {
	struct in_addr a;
	return inet_aton(s, &a) ? a.s_addr : INADDR_NONE;
}

WEAK char *inet_ntoa(struct in_addr a) {
	static __thread char buf[16];
	unsigned char *b = (unsigned char *)&a.s_addr;
	snprintf(buf, sizeof buf, "%u.%u.%u.%u", b[0], b[1], b[2], b[3]);
	return buf;
}

/* pton4 accepts exactly four decimal parts without leading zeros. */
static int pton4(const char *s, unsigned char *out) {
	for (int i = 0; i < 4; i++) {
		if (*s < '0' || *s > '9')
			return 0;
		unsigned v = 0;
		const char *start = s;
		while (*s >= '0' && *s <= '9') {
			v = v * 10 + (unsigned)(*s++ - '0');
			if (v > 255 || (s - start > 1 && *start == '0'))
				return 0;
		}
		out[i] = (unsigned char)v;
		if (i < 3 && *s++ != '.')
			return 0;
	}
	return *s == '\0';
}

static int hexval(char c) {
	if (c >= '0' && c <= '9')
		return c - '0';
	if (c >= 'a' && c <= 'f')
		return c - 'a' + 10;
	if (c >= 'A' && c <= 'F')
		return c - 'A' + 10;
	return -1;
}

static int pton6(const char *s, unsigned char *out) {
	unsigned char buf[16] = {0};
	int n = 0, gap = -1;
	if (s[0] == ':') {
		if (s[1] != ':')
			return 0;
		s++;
	}
	while (*s) {
		if (*s == ':') {
			if (gap >= 0)
				return 0;
			gap = n;
			s++;
			if (*s == '\0')
				break;
			continue;
		}
		const char *start = s;
		unsigned v = 0;
		int digits = 0;
		while (hexval(*s) >= 0 && digits < 5) {
			v = v << 4 | (unsigned)hexval(*s++);
			digits++;
		}
		if (*s == '.' && n <= 12) {
			if (!pton4(start, buf + n))
				return 0;
			n += 4;
			break;
		}
		if (digits == 0 || digits > 4 || n > 14)
			return 0;
		buf[n++] = (unsigned char)(v >> 8);
		buf[n++] = (unsigned char)v;
		if (*s == ':') {
			s++;
			if (*s == '\0')
				return 0;
			if (*s == ':') {
				if (gap >= 0)
					return 0;
				gap = n;
				s++;
			}
		} else if (*s != '\0') {
			return 0;
		}
	}
	if (gap >= 0) {
		if (n == 16)
			return 0;
		memmove(buf + 16 - (n - gap), buf + gap, (size_t)(n - gap));
		memset(buf + gap, 0, (size_t)(16 - n));
	} else if (n != 16) {
		return 0;
	}
	memcpy(out, buf, 16);
	return 1;
}

WEAK int inet_pton(int af, const char *s, void *dst) {
	if (af == AF_INET)
		return pton4(s, dst);
	if (af == AF_INET6)
		return pton6(s, dst);
	errno = EAFNOSUPPORT;
	return -1;
}

WEAK const char *inet_ntop(int af, const void *src, char *dst, socklen_t size) {
	char buf[64];
	const unsigned char *b = src;
	if (af == AF_INET) {
		snprintf(buf, sizeof buf, "%u.%u.%u.%u", b[0], b[1], b[2], b[3]);
	} else if (af == AF_INET6) {
		/* The longest run of two or more zero groups becomes "::". */
		unsigned g[8];
		for (int i = 0; i < 8; i++)
			g[i] = (unsigned)b[2 * i] << 8 | b[2 * i + 1];
		int best = -1, bestLen = 1;
		for (int i = 0; i < 8;) {
			int j = i;
			while (j < 8 && g[j] == 0)
				j++;
			if (j - i > bestLen) {
				best = i;
				bestLen = j - i;
			}
			i = j > i ? j : i + 1;
		}
		char *p = buf;
		for (int i = 0; i < 8; i++) {
			if (i == best) {
				*p++ = ':';
				if (i == 0)
					*p++ = ':';
				i += bestLen - 1;
				continue;
			}
			if (i == 6 && best == 0 && (bestLen == 6 || (bestLen == 5 && g[5] == 0xffff))) {
				p += sprintf(p, "%u.%u.%u.%u", b[12], b[13], b[14], b[15]);
				break;
			}
			p += sprintf(p, "%x", g[i]);
			if (i < 7)
				*p++ = ':';
		}
		*p = '\0';
	} else {
		errno = EAFNOSUPPORT;
		return NULL;
	}
	if (strlen(buf) >= size) {
		errno = ENOSPC;
		return NULL;
	}
	strcpy(dst, buf);
	return dst;
}
