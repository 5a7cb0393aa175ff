/* Four threads each take two mutexes as C++17's std::lock does over
 * mutexes of one type: take one, try the other, and when the try fails let
 * go and begin again with the one that was taken. Half of them release the
 * pair in the other order. Correct, and it prints "total 100" under every
 * schedule; a schedule that switches right after each thread takes its
 * first mutex can keep three of them in step for ever (each finds its
 * second mutex just taken by the next), a hang of the schedule rather than
 * of the program. Postponing thread 1 after the second decision of the
 * round-robin run did that. */
#include <pthread.h>
#include <stdio.h>

static pthread_mutex_t mu[2] = {PTHREAD_MUTEX_INITIALIZER, PTHREAD_MUTEX_INITIALIZER};
static long total;

static void lock_both(void) {
	int first = 0;
	for (;;) {
		pthread_mutex_lock(&mu[first]);
		if (pthread_mutex_trylock(&mu[1 - first]) == 0)
			return;
		pthread_mutex_unlock(&mu[first]);
		first = 1 - first;
	}
}

static void *worker(void *arg) {
	long id = (long)arg;
	for (int i = 0; i < 25; i++) {
		lock_both();
		total++;
		pthread_mutex_unlock(&mu[id % 2]);
		pthread_mutex_unlock(&mu[1 - id % 2]);
	}
	return 0;
}

int main(void) {
	pthread_t t[4];
	for (long i = 0; i < 4; i++)
		pthread_create(&t[i], 0, worker, (void *)i);
	for (int i = 0; i < 4; i++)
		pthread_join(t[i], 0);
	printf("total %ld\n", total);
	return 0;
}
