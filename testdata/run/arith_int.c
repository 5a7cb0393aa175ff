/* Integer arithmetic edge cases: wrap-around, signed division and remainder,
 * shifts, narrowing and widening conversions. */
#include <limits.h>
#include <stdint.h>
#include <stdio.h>

static volatile int vmin = INT_MIN;

int main(void) {
	unsigned u = UINT_MAX;
	u += 2;
	printf("wrap %u\n", u);
	int a = -7, b = 2;
	printf("div %d %d %d %d\n", a / b, a % b, -a / b, a % -b);
	long long big = 3037000499LL;
	printf("mul %lld %lld\n", big * big, (long long)((unsigned long long)big * big * 3));
	printf("shift %d %u %lld %d\n", -16 >> 2, 0x80000000u >> 31, 1LL << 40, 1 << 30);
	signed char c = (signed char)200;
	unsigned char uc = (unsigned char)-1;
	short s = (short)70000;
	printf("narrow %d %d %d\n", c, uc, s);
	printf("widen %lld %llu\n", (long long)vmin, (unsigned long long)(unsigned)vmin);
	int64_t x = INT64_MIN;
	printf("min64 %lld %lld\n", (long long)x, (long long)(x / 3));
	uint32_t h = 2166136261u;
	for (const char *p = "augur"; *p; p++) {
		h ^= (uint8_t)*p;
		h *= 16777619u;
	}
	printf("fnv %08x\n", h);
	printf("cmp %d %d %d\n", -1 < 0u, (unsigned char)200 > (signed char)-1, (long)-1 < 1UL);
	printf("bool %d %d\n", !!42, (_Bool)0.5);
	printf("ternary %d\n", a > b ? a : b);
	return 0;
}
