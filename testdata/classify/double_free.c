/* Each thread frees the shared buffer if it is still set. In the recorded
 * order the second thread sees NULL; in the other order both free it. */
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>

static char *buf;

static void *release(void *arg) {
	(void)arg;
	if (buf != NULL) { // race: dfree spec-violated
		free(buf); // race: freed spec-violated
		buf = NULL; // race: dfree spec-violated // race: freed spec-violated // race: cleared k-witness-harmless // pattern: redundant-write
	}
	return NULL;
}

int main(void) {
	buf = malloc(32);
	pthread_t a, b;
	pthread_create(&a, NULL, release, NULL);
	pthread_create(&b, NULL, release, NULL);
	pthread_join(a, NULL);
	pthread_join(b, NULL);
	puts("released");
	return 0;
}

/* Between the two orders, the second thread may see the buffer set at its
 * check and read it again for free after the first cleared it: free(NULL),
 * and both threads store NULL. The exploration reaches it by a switch
 * right after the check, and reports the races `freed` and `cleared`. */
