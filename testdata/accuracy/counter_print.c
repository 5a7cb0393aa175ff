/* Two workers count events in a shared counter without the lock, and
 * main prints the total: approximate statistics that are printed.
 *
 * events: output-differs. A lost update makes main print 3 instead of 4. */
#include <pthread.h>
#include <stdio.h>

static int events;

static void *worker(void *arg) {
	(void)arg;
	for (int i = 0; i < 2; i++)
		events = events + 1; // race: events output-differs
	return NULL;
}

int main(void) {
	pthread_t a, b;
	pthread_create(&a, NULL, worker, NULL);
	pthread_create(&b, NULL, worker, NULL);
	pthread_join(a, NULL);
	pthread_join(b, NULL);
	printf("events %d\n", events);
	return 0;
}
