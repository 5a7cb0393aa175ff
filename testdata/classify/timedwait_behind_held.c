/* As timer_behind_held.c, with the timer a timed condition wait that no
 * one signals: main waits on it with a deadline, then stores the next
 * beat. Holding the worker at its read leaves main's wait as the only way
 * on, and it times out. */
#include <pthread.h>
#include <stdio.h>
#include <time.h>

static pthread_mutex_t mu = PTHREAD_MUTEX_INITIALIZER;
static pthread_cond_t never = PTHREAD_COND_INITIALIZER;
static int beats;

static void *worker(void *arg) {
	(void)arg;
	int seen = beats; // race: beats output-differs
	printf("worker saw beat %d\n", seen);
	return NULL;
}

int main(void) {
	pthread_t w;
	pthread_create(&w, NULL, worker, NULL);
	for (int i = 0; i < 2; i++) {
		struct timespec until;
		clock_gettime(CLOCK_REALTIME, &until);
		until.tv_sec += 1;
		pthread_mutex_lock(&mu);
		pthread_cond_timedwait(&never, &mu, &until);
		pthread_mutex_unlock(&mu);
		beats = i + 1; // race: beats output-differs
	}
	pthread_join(w, NULL);
	return 0;
}
