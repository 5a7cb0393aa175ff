/* Ad hoc synchronization through a volatile flag: the flag accesses race
 * (volatile is not synchronization), and so does the data it was meant to
 * protect. */
#include <pthread.h>
#include <stdio.h>

static volatile int done;
static int result;

static void *work(void *arg) {
	(void)arg;
	result = 6 * 7; // race: result single-ordering // pattern: ad-hoc-synchronization
	done = 1; // race: done single-ordering // pattern: ad-hoc-synchronization
	return NULL;
}

int main(void) {
	pthread_t t;
	pthread_create(&t, NULL, work, NULL);
	while (!done) // race: done single-ordering
		;
	printf("%d\n", result); // race: result single-ordering
	pthread_join(t, NULL);
	return 0;
}
