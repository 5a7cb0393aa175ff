// expect: crash SIGSEGV "stack overflow: a stack allocation of" line 11
/* A variable-length array far larger than a thread's stack: natively a
 * segmentation fault, here too (it once made the interpreter ask Go for
 * the whole array and die). */
#include <stdio.h>
#include <string.h>

static unsigned long n = 1UL << 36;

int main(void) {
	char buf[n];
	memset(buf, 0, 16);
	printf("%d\n", buf[3]);
	return 0;
}
