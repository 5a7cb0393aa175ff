/* A writer thread polls, with a sleep between checks, for the items the
 * main thread produces under a mutex, and stops once main says it is done
 * (the shape of pbzip2's file writer). A schedule that postpones main at
 * one of its acquisitions must still let it run while the writer polls:
 * waking the writer early for ever would be a hang of the schedule, not of
 * the program, which always ends.
 *
 * expect: no harm
 */
#include <pthread.h>
#include <stdio.h>
#include <unistd.h>

static pthread_mutex_t m = PTHREAD_MUTEX_INITIALIZER;
static int produced, consumed, done;

static void *writer(void *arg) {
	(void)arg;
	for (;;) {
		pthread_mutex_lock(&m);
		int have = produced > consumed;
		if (have)
			consumed++;
		int finished = done && produced == consumed;
		pthread_mutex_unlock(&m);
		if (finished)
			break;
		if (!have)
			usleep(50000);
	}
	return 0;
}

int main(void) {
	pthread_t w;
	pthread_create(&w, 0, writer, 0);
	for (int i = 0; i < 4; i++) {
		pthread_mutex_lock(&m);
		produced++;
		pthread_mutex_unlock(&m);
	}
	pthread_mutex_lock(&m);
	done = 1;
	pthread_mutex_unlock(&m);
	pthread_join(w, 0);
	printf("wrote %d items\n", consumed);
	return 0;
}
