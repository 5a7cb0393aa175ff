/* Each worker reads the counter, then stores one more: making counter
 * atomic makes each access atomic but leaves the read and the store
 * apart, so an update can still be lost and the output still depends on
 * the schedule. The atomic fix alone is proposed and rejected; with the
 * read and the store made one atomic fetch_add it is verified. */
#include <pthread.h>
#include <stdio.h>

static int counter; // fix: atomic rejected

static void *worker(void *arg) {
	for (int i = 0; i < 50; i++) {
		int seen = counter; // race: counter // fix: atomic verified
		counter = seen + 1;
	}
	return NULL;
}

int main(void) {
	pthread_t a, b;
	pthread_create(&a, NULL, worker, NULL);
	pthread_create(&b, NULL, worker, NULL);
	pthread_join(a, NULL);
	pthread_join(b, NULL);
	printf("counter %d\n", counter);
	return 0;
}
