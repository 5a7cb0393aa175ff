/* A worker sets a flag that main reads without synchronization after a
 * computation of its own: a race, so the first schedule is not the only
 * execution (in another, main reads the flag first). Every schedule is
 * worth running.
 *
 * expect: not only
 */
#include <pthread.h>
#include <stdio.h>

static int ready;

static void *work(void *arg) {
	(void)arg;
	ready = 1;
	return NULL;
}

int main(void) {
	pthread_t t;
	pthread_create(&t, NULL, work, NULL);
	long s = 0;
	for (long i = 0; i < 1000; i++)
		s += i;
	int seen = ready;
	pthread_join(t, NULL);
	printf("%ld %d\n", s, seen);
	return 0;
}
