/* main spins on a flag the writer set before: under the weak model the
 * first read may return the old 0, and re-reading returns it again (write
 * buffering), but only for a bounded number of re-reads: the store becomes
 * visible and the loop ends, rather than looking like a hang.
 *
 * outcomes weak: done
 */
#include <pthread.h>
#include <stdio.h>

static int flag;

static void *writer(void *arg) {
	(void)arg;
	flag = 1;
	return NULL;
}

int main(void) {
	pthread_t t;
	pthread_create(&t, NULL, writer, NULL);
	pthread_join(t, NULL);
	flag = 0;
	pthread_create(&t, NULL, writer, NULL);
	for (volatile int i = 0; i < 2000; i++) {
	}
	while (flag == 0) {
	}
	puts("done");
	pthread_join(t, NULL);
	return 0;
}
