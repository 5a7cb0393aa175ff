// expect: crash SIGSEGV "use after free: read of 8 bytes at offset 0 of a heap object freed earlier" line 17
/* A pointer freed 100,000 frees ago is still caught: freed objects give
 * their memory back (only the last 65,536 keep a record of where they were
 * freed), but heap ids are never reused, so the id stays a freed one. */
#include <stdlib.h>

int main(void) {
	long *old = malloc(sizeof *old);
	*old = 7;
	free(old);
	for (int i = 0; i < 100000; i++) {
		long *p = malloc(sizeof *p);
		*p = i;
		free(p);
	}
	long v = 0;
	v = *old;
	return (int)v;
}
