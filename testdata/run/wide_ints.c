/* Integers wider than 64 bits: a 61-bit field after a byte in a packed
 * struct (clang keeps it in an i72), fields straddling eight bytes, and
 * __int128 arithmetic, comparisons, casts, calls and globals. */
#include <stdio.h>

struct __attribute__((packed)) packed {
	unsigned char tag;
	unsigned long big : 61;
	unsigned long small : 7;
};

struct spans {
	unsigned long a : 40;
	unsigned long b : 61;
	long c : 30;
};

static __int128 g = ((__int128)0x0123456789abcdefLL << 64) | 0xfedcba9876543210ULL;
static unsigned __int128 ug = ~(unsigned __int128)0;

static void print_u128(unsigned __int128 v) {
	char buf[64];
	int n = 0;
	do {
		buf[n++] = (char)('0' + (int)(v % 10));
		v /= 10;
	} while (v);
	while (n)
		putchar(buf[--n]);
	putchar('\n');
}

static void print_i128(__int128 v) {
	if (v < 0) {
		putchar('-');
		print_u128((unsigned __int128)0 - (unsigned __int128)v);
	} else {
		print_u128((unsigned __int128)v);
	}
}

static __int128 mul_add(__int128 a, __int128 b, long c) { return a * b + c; }

int main(void) {
	struct packed p = {0};
	p.tag = 3;
	p.big = (1UL << 60) + 5;
	p.small = 100;
	p.big += 7;
	printf("packed: %u %lu %u size %zu\n", p.tag, (unsigned long)p.big, (unsigned)p.small, sizeof p);

	struct spans s = {0};
	s.a = 0xffffffffffUL;
	s.b = (1UL << 60) | 1;
	s.c = -12345;
	s.b >>= 3;
	printf("spans: %lu %lu %ld\n", (unsigned long)s.a, (unsigned long)s.b, (long)s.c);

	__int128 x = (__int128)1 << 100;
	__int128 y = -((__int128)3 << 70);
	print_i128(x);
	print_i128(y);
	print_i128(x + y);
	print_i128(x - y);
	print_i128(mul_add((__int128)123456789012345LL, (__int128)987654321098765LL, -7));
	print_i128(x / y);
	print_i128(x % y);
	print_i128(y >> 5);
	print_u128((unsigned __int128)y >> 5);
	print_u128(ug);
	print_i128(g);
	printf("compare: %d %d %d %d\n", x > y, (unsigned __int128)x > (unsigned __int128)y, x == g, y != x);
	printf("casts: %ld %lu %d\n", (long)y, (unsigned long)(x >> 40), (int)(g & 0xff));
	long neg = -5;
	__int128 widened = neg;
	print_i128(widened * widened * widened);
	unsigned __int128 acc = 1;
	for (int i = 0; i < 30; i++)
		acc = acc * 7 + (unsigned)i;
	print_u128(acc);
	return (int)(acc & 0x3f);
}
