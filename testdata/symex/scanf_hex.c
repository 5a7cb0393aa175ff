// expect: --sym-stdin 6: assert "in the window" stdin
/* A hexadecimal number read with scanf "%x" fails an assertion only
 * inside a narrow window. The exploration keeps the hexadecimal digits
 * symbolic (either case, after an optional 0x), so it reaches the window
 * from symbolic bytes alone, and the failure replays on the standard
 * input it generated. */
#include <assert.h>
#include <stdio.h>

int main(void) {
	unsigned n = 0;
	if (scanf("%x", &n) != 1)
		return 1;
	if (n > 0xbee0 && n < 0xbef0)
		assert(!"the number is in the window");
	printf("n=%#x\n", n);
	return 0;
}
