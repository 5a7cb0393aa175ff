/* A thread stores the same value many times while main reads without
 * synchronizing: the history keeps one entry per value, so the read can
 * return only the initial 0 or 1 (one fork under the weak model).
 *
 * outcomes weak: 0 1
 */
#include <pthread.h>
#include <stdio.h>

static int x;

static void *writer(void *arg) {
	(void)arg;
	for (int i = 0; i < 100; i++)
		x = 1;
	return NULL;
}

int main(void) {
	pthread_t t;
	pthread_create(&t, NULL, writer, NULL);
	for (volatile int i = 0; i < 2000; i++) {
	}
	printf("%d\n", x);
	pthread_join(t, NULL);
	return 0;
}
