/* A server's main thread ticks a clock from a timed poll, as an event
 * loop's timer does, while a worker stamps a request with the clock. The
 * worker reads the clock first (at tick 0); to run the other order the
 * classifier holds the worker at its read until main stores the next
 * tick. Main is blocked in poll with a timeout then, so nothing can run
 * but the held worker: the timeout must fire (a held thread may be slower
 * than any timeout) rather than the order be called impossible. The
 * stamp is printed, so the other order prints another line. */
#include <poll.h>
#include <pthread.h>
#include <stdio.h>

static int ticks;

static void *worker(void *arg) {
	(void)arg;
	int stamp = ticks; // race: ticks output-differs
	printf("request stamped at tick %d\n", stamp);
	return NULL;
}

int main(void) {
	pthread_t w;
	pthread_create(&w, NULL, worker, NULL);
	for (int i = 0; i < 3; i++) {
		poll(NULL, 0, 100); // the timer: 100 ms with nothing to wait for
		ticks = i + 1; // race: ticks output-differs
	}
	pthread_join(w, NULL);
	return 0;
}
