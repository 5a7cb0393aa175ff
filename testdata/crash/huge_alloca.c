// expect: crash SIGSEGV "more than 2^64 bytes" line 14
/* A variable-length array whose size in bytes does not fit in 64 bits (or,
 * given an argument, an alloca of a terabyte): stack overflows, not
 * crashes of augur. */
#include <alloca.h>

static unsigned long n = 1UL << 61;

int main(int argc, char **argv) {
	if (argc > 1) {
		long *p = __builtin_alloca(1UL << 40);
		return (int)p[0];
	}
	long vla[n * 2]; /* 2^62 longs: 2^65 bytes */
	vla[0] = 1;
	return (int)vla[0];
}
