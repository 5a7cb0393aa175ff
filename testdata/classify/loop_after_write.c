/* An event loop after the racing write: main ticks a clock from a timed
 * poll and checks, under a mutex, whether the worker asked it to stop.
 * Held at its read of the clock, the worker cannot ask, so after its write
 * main comes back to its check in the same state, reading the same 0: that
 * loop is the program going on without the worker, not a spin on the race
 * (main's write, the access the other order needs, has happened). */
#include <poll.h>
#include <pthread.h>
#include <stdio.h>

static pthread_mutex_t mu = PTHREAD_MUTEX_INITIALIZER;
static int ticks, stop;

static void *worker(void *arg) {
	(void)arg;
	int seen = ticks; // race: ticks output-differs
	printf("worker saw tick %d\n", seen);
	pthread_mutex_lock(&mu);
	stop = 1;
	pthread_mutex_unlock(&mu);
	return NULL;
}

// on_timer is the timer's handler: the loop's own registers stay as they
// were, so only time tells one turn of the loop from the next.
static void on_timer(void) {
	ticks++; // race: ticks output-differs
}

int main(void) {
	pthread_t w;
	pthread_create(&w, NULL, worker, NULL);
	for (;;) {
		poll(NULL, 0, 100);
		on_timer();
		pthread_mutex_lock(&mu);
		int done = stop;
		pthread_mutex_unlock(&mu);
		if (done)
			break;
	}
	pthread_join(w, NULL);
	return 0;
}
