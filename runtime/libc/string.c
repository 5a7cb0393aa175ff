/* string.h for programs run by augur. Plain C so that the interpreter sees
 * every byte these functions read and write (races inside strcpy are races).
 * memcpy, memmove and memset are primitives of the VM. Every definition is
 * weak: a program that defines its own strlen keeps it. */
#include <stddef.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>
#include <ctype.h>

#define WEAK __attribute__((weak))

WEAK size_t strlen(const char *s) {
	const char *p = s;
	while (*p)
		p++;
	return (size_t)(p - s);
}

WEAK size_t strnlen(const char *s, size_t max) {
	size_t n = 0;
	while (n < max && s[n])
		n++;
	return n;
}

WEAK int strcmp(const char *a, const char *b) {
	while (*a && *a == *b) {
		a++;
		b++;
	}
	return (unsigned char)*a - (unsigned char)*b;
}

WEAK int strncmp(const char *a, const char *b, size_t n) {
	for (; n > 0; n--, a++, b++) {
		if (*a != *b)
			return (unsigned char)*a - (unsigned char)*b;
		if (!*a)
			return 0;
	}
	return 0;
}

WEAK int strcasecmp(const char *a, const char *b) {
	for (;; a++, b++) {
		int x = tolower((unsigned char)*a), y = tolower((unsigned char)*b);
		if (x != y || !x)
			return x - y;
	}
}

WEAK int strncasecmp(const char *a, const char *b, size_t n) {
	for (; n > 0; n--, a++, b++) {
		int x = tolower((unsigned char)*a), y = tolower((unsigned char)*b);
		if (x != y || !x)
			return x - y;
	}
	return 0;
}

WEAK char *strcpy(char *dst, const char *src) {
	char *d = dst;
	while ((*d++ = *src++))
		;
	return dst;
}

WEAK char *strncpy(char *dst, const char *src, size_t n) {
	size_t i = 0;
	for (; i < n && src[i]; i++)
		dst[i] = src[i];
	for (; i < n; i++)
		dst[i] = 0;
	return dst;
}

WEAK char *stpcpy(char *dst, const char *src) {
	while ((*dst = *src++))
		dst++;
	return dst;
}

/* stpncpy is strncpy returning the end: the first NUL it wrote, or dst+n. */
WEAK char *stpncpy(char *dst, const char *src, size_t n) {
	size_t i = 0;
	for (; i < n && src[i]; i++)
		dst[i] = src[i];
	char *end = dst + i;
	for (; i < n; i++)
		dst[i] = 0;
	return end;
}

WEAK char *strcat(char *dst, const char *src) {
	strcpy(dst + strlen(dst), src);
	return dst;
}

WEAK char *strncat(char *dst, const char *src, size_t n) {
	char *d = dst + strlen(dst);
	while (n-- > 0 && *src)
		*d++ = *src++;
	*d = 0;
	return dst;
}

WEAK char *strchr(const char *s, int c) {
	for (;; s++) {
		if (*s == (char)c)
			return (char *)s;
		if (!*s)
			return NULL;
	}
}

WEAK char *strrchr(const char *s, int c) {
	const char *last = NULL;
	for (;; s++) {
		if (*s == (char)c)
			last = s;
		if (!*s)
			return (char *)last;
	}
}

WEAK char *strstr(const char *hay, const char *needle) {
	size_t n = strlen(needle);
	if (n == 0)
		return (char *)hay;
	for (; *hay; hay++)
		if (*hay == *needle && strncmp(hay, needle, n) == 0)
			return (char *)hay;
	return NULL;
}

WEAK size_t strspn(const char *s, const char *accept) {
	size_t n = 0;
	while (s[n] && strchr(accept, s[n]))
		n++;
	return n;
}

WEAK size_t strcspn(const char *s, const char *reject) {
	size_t n = 0;
	while (s[n] && !strchr(reject, s[n]))
		n++;
	return n;
}

WEAK char *strpbrk(const char *s, const char *accept) {
	s += strcspn(s, accept);
	return *s ? (char *)s : NULL;
}

WEAK char *strtok_r(char *s, const char *delim, char **save) {
	if (!s)
		s = *save;
	s += strspn(s, delim);
	if (!*s) {
		*save = s;
		return NULL;
	}
	char *end = s + strcspn(s, delim);
	if (*end)
		*end++ = 0;
	*save = end;
	return s;
}

WEAK char *strtok(char *s, const char *delim) {
	static char *save;
	return strtok_r(s, delim, &save);
}

WEAK int memcmp(const void *a, const void *b, size_t n) {
	const unsigned char *x = a, *y = b;
	for (; n > 0; n--, x++, y++)
		if (*x != *y)
			return *x - *y;
	return 0;
}

WEAK void *memchr(const void *s, int c, size_t n) {
	const unsigned char *p = s;
	for (; n > 0; n--, p++)
		if (*p == (unsigned char)c)
			return (void *)p;
	return NULL;
}

WEAK char *strdup(const char *s) {
	size_t n = strlen(s) + 1;
	char *d = malloc(n);
	if (d)
		memcpy(d, s, n);
	return d;
}

WEAK char *strndup(const char *s, size_t max) {
	size_t n = strnlen(s, max);
	char *d = malloc(n + 1);
	if (d) {
		memcpy(d, s, n);
		d[n] = 0;
	}
	return d;
}
