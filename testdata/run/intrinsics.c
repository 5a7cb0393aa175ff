/* Builtins clang lowers to intrinsics: bit counting, byte swaps, overflow
 * checks, abs, expect, min/max patterns. */
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>

int main(void) {
	unsigned vals[] = {1, 0x80000000u, 0xF0F0u, 12345678u};
	for (int i = 0; i < 4; i++) {
		unsigned v = vals[i];
		printf("%u: pop %d clz %d ctz %d bswap %08x parity %d\n", v, __builtin_popcount(v), __builtin_clz(v),
		       __builtin_ctz(v), __builtin_bswap32(v), __builtin_parity(v));
	}
	uint64_t w = 0x0102030405060708ULL;
	printf("bswap64 %016llx popll %d clzll %d\n", (unsigned long long)__builtin_bswap64(w), __builtin_popcountll(w),
	       __builtin_clzll(w));
	printf("bswap16 %04x\n", __builtin_bswap16(0xABCD));
	int r;
	printf("sadd %d", __builtin_sadd_overflow(2147483647, 1, &r));
	printf(" %d", r);
	printf(" smul %d", __builtin_smul_overflow(65536, 65536, &r));
	unsigned ur;
	printf(" uadd %d", __builtin_uadd_overflow(4000000000u, 400000000u, &ur));
	printf(" %u", ur);
	printf(" usub %d\n", __builtin_usub_overflow(1u, 2u, &ur));
	long long ll;
	printf("mul64 %d %d\n", __builtin_mul_overflow(3037000500LL, 3037000500LL, &ll), __builtin_add_overflow(1LL, 2LL, &ll));
	printf("abs %d %ld expect %d\n", abs(-9), labs(-123456789L), __builtin_expect(5, 1));
	int a = 3, b = -8;
	printf("minmax %d %d\n", a < b ? a : b, a > b ? a : b);
	return 0;
}
