/* stdlib.h conversions, rand, qsort and bsearch, in C so their memory
 * accesses are interpreted like the program's own. Weak so a program may
 * define its own. */
#include <ctype.h>
#include <inttypes.h>
#include <errno.h>
#include <limits.h>
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#define WEAK __attribute__((weak))

/* Parses an unsigned magnitude in base (0: auto) and reports overflow. */
static unsigned long long parse_ull(const char *s, char **end, int base, int *neg, int *overflow) {
	const char *p = s;
	unsigned long long v = 0;
	int any = 0;
	*neg = 0;
	*overflow = 0;
	while (isspace((unsigned char)*p))
		p++;
	if (*p == '-' || *p == '+')
		*neg = *p++ == '-';
	if ((base == 0 || base == 16) && p[0] == '0' && (p[1] == 'x' || p[1] == 'X') && isxdigit((unsigned char)p[2])) {
		p += 2;
		base = 16;
	} else if (base == 0) {
		base = p[0] == '0' ? 8 : 10;
	}
	for (;; p++) {
		int d;
		if (*p >= '0' && *p <= '9')
			d = *p - '0';
		else if (*p >= 'a' && *p <= 'z')
			d = *p - 'a' + 10;
		else if (*p >= 'A' && *p <= 'Z')
			d = *p - 'A' + 10;
		else
			break;
		if (d >= base)
			break;
		any = 1;
		if (v > (ULLONG_MAX - d) / base)
			*overflow = 1;
		else
			v = v * base + d;
	}
	if (end)
		*end = (char *)(any ? p : s);
	return v;
}

WEAK long long strtoll(const char *s, char **end, int base) {
	int neg, ovf;
	unsigned long long v = parse_ull(s, end, base, &neg, &ovf);
	if (ovf || (!neg && v > LLONG_MAX) || (neg && v > (unsigned long long)LLONG_MAX + 1)) {
		errno = ERANGE;
		return neg ? LLONG_MIN : LLONG_MAX;
	}
	return neg ? (long long)(0 - v) : (long long)v;
}

WEAK long strtol(const char *s, char **end, int base) { return strtoll(s, end, base); }

WEAK unsigned long long strtoull(const char *s, char **end, int base) {
	int neg, ovf;
	unsigned long long v = parse_ull(s, end, base, &neg, &ovf);
	if (ovf) {
		errno = ERANGE;
		return ULLONG_MAX;
	}
	return neg ? 0 - v : v;
}

WEAK unsigned long strtoul(const char *s, char **end, int base) { return strtoull(s, end, base); }
WEAK intmax_t strtoimax(const char *s, char **end, int base) { return strtoll(s, end, base); }
WEAK uintmax_t strtoumax(const char *s, char **end, int base) { return strtoull(s, end, base); }
WEAK long double strtold(const char *s, char **end) { return strtod(s, end); }
WEAK int atoi(const char *s) { return (int)strtol(s, NULL, 10); }
WEAK long atol(const char *s) { return strtol(s, NULL, 10); }
WEAK long long atoll(const char *s) { return strtoll(s, NULL, 10); }
WEAK int abs(int x) { return x < 0 ? -x : x; }
WEAK long labs(long x) { return x < 0 ? -x : x; }
WEAK long long llabs(long long x) { return x < 0 ? -x : x; }

WEAK div_t div(int n, int d) {
	div_t r = {n / d, n % d};
	return r;
}

WEAK ldiv_t ldiv(long n, long d) {
	ldiv_t r = {n / d, n % d};
	return r;
}

WEAK lldiv_t lldiv(long long n, long long d) {
	lldiv_t r = {n / d, n % d};
	return r;
}

WEAK imaxdiv_t imaxdiv(intmax_t n, intmax_t d) {
	imaxdiv_t r = {n / d, n % d};
	return r;
}

WEAK intmax_t imaxabs(intmax_t x) { return x < 0 ? -x : x; }

/* glibc's rand() and random(), with initstate() and setstate(): the
 * additive feedback generators of glibc's random_r.c, so programs print
 * the same numbers as natively. The state lives in the caller's buffer
 * (initstate) or in randtbl: its first word says the generator's type and
 * where its rear pointer is, so setstate can switch between buffers.
 * Types by buffer size: 8 bytes is a linear congruence (TYPE_0); 32, 64,
 * 128 and 256 bytes are r[i] = r[i-deg] + r[i-deg+sep] of degree 7, 15,
 * 31 and 63. Like glibc's, the calls take a lock: threads that call
 * rand() do not race inside the library. */
enum { MAX_TYPES = 5 };
static const int rand_degrees[MAX_TYPES] = {0, 7, 15, 31, 63};
static const int rand_seps[MAX_TYPES] = {0, 3, 1, 3, 1};
static int32_t randtbl[32];
/* The shared generator of random() is one of random_r's: the reentrant
 * functions below serve both, the shared ones under rand_lock. */
static struct random_data rs;
static pthread_mutex_t rand_lock = PTHREAD_MUTEX_INITIALIZER;

static int32_t next_random(struct random_data *g) {
	if (g->rand_type == 0) {
		int32_t v = (int32_t)(((uint32_t)g->state[0] * 1103515245U + 12345U) & 0x7fffffff);
		g->state[0] = v;
		return v;
	}
	uint32_t v = (uint32_t)*g->fptr + (uint32_t)*g->rptr;
	*g->fptr = (int32_t)v;
	if (++g->fptr >= g->end_ptr) {
		g->fptr = g->state;
		++g->rptr;
	} else if (++g->rptr >= g->end_ptr) {
		g->rptr = g->state;
	}
	return (int32_t)(v >> 1);
}

static void seed_random(struct random_data *g, unsigned seed) {
	if (seed == 0)
		seed = 1;
	g->state[0] = (int32_t)seed;
	if (g->rand_type == 0)
		return;
	int32_t word = (int32_t)seed;
	for (int i = 1; i < g->rand_deg; i++) {
		long hi = word / 127773, lo = word % 127773;
		long w = 16807 * lo - 2836 * hi;
		if (w < 0)
			w += 2147483647;
		g->state[i] = word = (int32_t)w;
	}
	g->fptr = &g->state[g->rand_sep];
	g->rptr = &g->state[0];
	for (int k = g->rand_deg * 10; k > 0; k--)
		(void)next_random(g);
}

/* The word before a state: its type, and where its rear pointer is. */
static void save_type(struct random_data *g) {
	g->state[-1] = g->rand_type == 0 ? 0 : (int32_t)(MAX_TYPES * (g->rptr - g->state) + g->rand_type);
}

static void use_state(struct random_data *g, int32_t *state, int type) {
	g->state = state;
	g->rand_type = type;
	g->rand_deg = rand_degrees[type];
	g->rand_sep = rand_seps[type];
	g->end_ptr = &state[g->rand_deg];
}

/* state_type is the generator's type for a buffer of n bytes, -1 when it
 * is too small for any. */
static int state_type(size_t n) {
	return n >= 256 ? 4 : n >= 128 ? 3 : n >= 64 ? 2 : n >= 32 ? 1 : n >= 8 ? 0 : -1;
}

/* Before the first call, the state is randtbl seeded with 1 (TYPE_3). */
static void random_ready(void) {
	if (rs.state == NULL) {
		use_state(&rs, &randtbl[1], 3);
		seed_random(&rs, 1);
	}
}

WEAK void srandom(unsigned seed) {
	pthread_mutex_lock(&rand_lock);
	random_ready();
	seed_random(&rs, seed);
	pthread_mutex_unlock(&rand_lock);
}

WEAK long random(void) {
	pthread_mutex_lock(&rand_lock);
	random_ready();
	long r = next_random(&rs);
	pthread_mutex_unlock(&rand_lock);
	return r;
}

WEAK void srand(unsigned seed) { srandom(seed); }
WEAK int rand(void) { return (int)random(); }

/* switch_state makes state (of the type) the generator's, under the lock
 * the caller holds, and returns the buffer of the one it replaces, its
 * type word saved. */
static char *switch_state(int32_t *state, int type) {
	random_ready();
	save_type(&rs);
	char *old = (char *)&rs.state[-1];
	use_state(&rs, state, type);
	return old;
}

WEAK char *initstate(unsigned seed, char *buf, size_t n) {
	int type = state_type(n);
	if (type < 0) {
		errno = EINVAL;
		return NULL;
	}
	pthread_mutex_lock(&rand_lock);
	char *old = switch_state((int32_t *)(void *)buf + 1, type);
	seed_random(&rs, seed);
	save_type(&rs);
	pthread_mutex_unlock(&rand_lock);
	return old;
}

/* restore_state sets g's pointers from the type word before state, as
 * setstate and setstate_r do; 0, or -1 when the word names no type. */
static int restore_state(struct random_data *g, int32_t *state) {
	int type = state[-1] % MAX_TYPES;
	if (type < 0 || type >= MAX_TYPES)
		return -1;
	use_state(g, state, type);
	if (type != 0) {
		int rear = state[-1] / MAX_TYPES;
		g->rptr = &state[rear];
		g->fptr = &state[(rear + g->rand_sep) % g->rand_deg];
	}
	return 0;
}

WEAK char *setstate(char *buf) {
	int32_t *state = (int32_t *)(void *)buf + 1;
	pthread_mutex_lock(&rand_lock);
	random_ready();
	save_type(&rs);
	char *old = (char *)&rs.state[-1];
	struct random_data prev = rs;
	if (restore_state(&rs, state) != 0) {
		rs = prev;
		pthread_mutex_unlock(&rand_lock);
		errno = EINVAL;
		return NULL;
	}
	pthread_mutex_unlock(&rand_lock);
	return old;
}

/* The reentrant forms: the generator is the caller's struct random_data,
 * which no other thread shares unless the program makes it so; no lock,
 * as in glibc. */
WEAK int random_r(struct random_data *g, int32_t *result) {
	if (g == NULL || result == NULL || g->state == NULL) {
		errno = EINVAL;
		return -1;
	}
	*result = next_random(g);
	return 0;
}

WEAK int srandom_r(unsigned seed, struct random_data *g) {
	if (g == NULL || g->state == NULL || g->rand_type < 0 || g->rand_type >= MAX_TYPES) {
		errno = EINVAL;
		return -1;
	}
	seed_random(g, seed);
	return 0;
}

WEAK int initstate_r(unsigned seed, char *buf, size_t n, struct random_data *g) {
	int type = state_type(n);
	if (g == NULL || buf == NULL || type < 0) {
		errno = EINVAL;
		return -1;
	}
	if (g->state != NULL)
		save_type(g);
	use_state(g, (int32_t *)(void *)buf + 1, type);
	seed_random(g, seed);
	save_type(g);
	return 0;
}

WEAK int setstate_r(char *buf, struct random_data *g) {
	if (g == NULL || buf == NULL) {
		errno = EINVAL;
		return -1;
	}
	if (g->state != NULL)
		save_type(g);
	if (restore_state(g, (int32_t *)(void *)buf + 1) != 0) {
		errno = EINVAL;
		return -1;
	}
	return 0;
}

/* The drand48 family: glibc's 48-bit linear congruence,
 * X' = (a X + c) mod 2^48 with a = 0x5DEECE66D and c = 0xB unless
 * lcong48 changed them, so programs draw the numbers they draw natively.
 * Like glibc's, the shared state has no lock (the functions are not
 * thread-safe there either). */
static unsigned short rand48_x[3] = {0x330e, 0, 0};
static unsigned short rand48_a[3] = {0xe66d, 0xdeec, 0x5};
static unsigned short rand48_c = 0xb;

static unsigned long long rand48_get(const unsigned short x[3]) {
	return (unsigned long long)x[2] << 32 | (unsigned long long)x[1] << 16 | x[0];
}

static void rand48_set(unsigned short x[3], unsigned long long v) {
	x[0] = (unsigned short)v;
	x[1] = (unsigned short)(v >> 16);
	x[2] = (unsigned short)(v >> 32);
}

/* rand48_next advances x and returns its new 48 bits. */
static unsigned long long rand48_next(unsigned short x[3]) {
	unsigned long long v = (rand48_get(rand48_a) * rand48_get(x) + rand48_c) & 0xffffffffffffULL;
	rand48_set(x, v);
	return v;
}

WEAK double erand48(unsigned short x[3]) { return (double)rand48_next(x) / 281474976710656.0; }
WEAK double drand48(void) { return erand48(rand48_x); }
WEAK long nrand48(unsigned short x[3]) { return (long)(rand48_next(x) >> 17); }
WEAK long lrand48(void) { return nrand48(rand48_x); }
WEAK long jrand48(unsigned short x[3]) { return (long)(int)(unsigned)(rand48_next(x) >> 16); }
WEAK long mrand48(void) { return jrand48(rand48_x); }

WEAK void srand48(long seed) {
	rand48_set(rand48_x, (unsigned long long)(unsigned)seed << 16 | 0x330e);
	rand48_set(rand48_a, 0x5deece66dULL);
	rand48_c = 0xb;
}

WEAK unsigned short *seed48(unsigned short seed[3]) {
	static unsigned short old[3];
	memcpy(old, rand48_x, sizeof old);
	memcpy(rand48_x, seed, sizeof rand48_x);
	rand48_set(rand48_a, 0x5deece66dULL);
	rand48_c = 0xb;
	return old;
}

WEAK void lcong48(unsigned short p[7]) {
	memcpy(rand48_x, p, 3 * sizeof p[0]);
	memcpy(rand48_a, p + 3, 3 * sizeof p[0]);
	rand48_c = p[6];
}

/* gets: C11 removed it and glibc no longer lets new programs link it, but
 * old benchmarks call it. It reads a line, without the newline, with no
 * bound, as it always did. */
char *gets(char *s);
WEAK char *gets(char *s) {
	char *p = s;
	int c;
	while ((c = fgetc(stdin)) != EOF && c != '\n')
		*p++ = (char)c;
	if (c == EOF && p == s)
		return NULL;
	*p = 0;
	return s;
}

WEAK int rand_r(unsigned *seed) {
	/* glibc's rand_r: three rounds of an LCG. */
	unsigned next = *seed;
	int result;
	next *= 1103515245;
	next += 12345;
	result = (unsigned)(next / 65536) % 2048;
	next *= 1103515245;
	next += 12345;
	result <<= 10;
	result ^= (unsigned)(next / 65536) % 1024;
	next *= 1103515245;
	next += 12345;
	result <<= 10;
	result ^= (unsigned)(next / 65536) % 1024;
	*seed = next;
	return result;
}

/* qsort is a stable merge sort, as glibc's is when memory allows, so equal
 * elements end up in the same order as natively. */
static void msort(char *b, size_t n, size_t s, int (*cmp)(const void *, const void *), char *tmp) {
	if (n <= 1)
		return;
	size_t n1 = n / 2, n2 = n - n1;
	char *b1 = b, *b2 = b + n1 * s;
	msort(b1, n1, s, cmp, tmp);
	msort(b2, n2, s, cmp, tmp);
	char *out = tmp;
	while (n1 > 0 && n2 > 0) {
		if (cmp(b1, b2) <= 0) {
			memcpy(out, b1, s);
			b1 += s;
			n1--;
		} else {
			memcpy(out, b2, s);
			b2 += s;
			n2--;
		}
		out += s;
	}
	if (n1 > 0)
		memcpy(out, b1, n1 * s);
	memcpy(b, tmp, (n - n2) * s);
}

WEAK void qsort(void *base, size_t n, size_t size, int (*cmp)(const void *, const void *)) {
	if (n <= 1 || size == 0)
		return;
	char *tmp = malloc(n * size);
	msort(base, n, size, cmp, tmp);
	free(tmp);
}

WEAK void *bsearch(const void *key, const void *base, size_t n, size_t size, int (*cmp)(const void *, const void *)) {
	size_t lo = 0, hi = n;
	while (lo < hi) {
		size_t mid = (lo + hi) / 2;
		const char *p = (const char *)base + mid * size;
		int c = cmp(key, p);
		if (c == 0)
			return (void *)p;
		if (c < 0)
			hi = mid;
		else
			lo = mid + 1;
	}
	return NULL;
}

/* fgets reads through fgetc so that, when the input is symbolic, the test
 * for the newline is a branch the interpreter can fork on. */
WEAK char *fgets(char *s, int n, FILE *f) {
	int i = 0;
	if (n <= 0)
		return NULL;
	while (i < n - 1) {
		int c = fgetc(f);
		if (c == EOF)
			break;
		s[i++] = (char)c;
		if (c == '\n')
			break;
	}
	if (i == 0 && n > 1)
		return NULL;
	s[i] = 0;
	return s;
}
