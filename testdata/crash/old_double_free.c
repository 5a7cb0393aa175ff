// expect: crash SIGABRT "double free of a heap object freed earlier" line 16
/* A double free long after the first free: the tombstone that named the
 * first free's site is gone, the freed id is not. */
#include <stdlib.h>

int main(void) {
	char *old = malloc(16);
	free(old);
	for (int i = 0; i < 70000; i++) {
		char *p = malloc(16);
		p[0] = 1;
		free(p);
	}
	char *again = old;
	(void)again;
	free(old);
	return 0;
}
