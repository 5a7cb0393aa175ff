/* usleep and nanosleep order threads by virtual time: the thread that
 * sleeps less reports first, and the clock advances by what was slept.
 * Each thread sleeps until a deadline counted from one start (what is
 * left of it when the thread runs), 50 ms apart, so the native run gives
 * the same order on a busy machine, where a thread may start late. */
#include <pthread.h>
#include <stdio.h>
#include <time.h>
#include <unistd.h>

static pthread_mutex_t m = PTHREAD_MUTEX_INITIALIZER;
static struct timespec start;
static char order[8];
static int n;

static long since_start_ns(void) {
	struct timespec now;
	clock_gettime(CLOCK_MONOTONIC, &now);
	return (now.tv_sec - start.tv_sec) * 1000000000L + (now.tv_nsec - start.tv_nsec);
}

static void *sleeper(void *arg) {
	long ms = (long)arg;
	long left = ms * 1000000L - since_start_ns();
	if (left > 0) {
		struct timespec ts = {left / 1000000000L, left % 1000000000L};
		nanosleep(&ts, NULL);
	}
	pthread_mutex_lock(&m);
	order[n++] = (char)('0' + ms / 50);
	pthread_mutex_unlock(&m);
	return NULL;
}

int main(void) {
	clock_gettime(CLOCK_MONOTONIC, &start);
	pthread_t t[3];
	long delays[] = {150, 50, 100};
	for (int i = 0; i < 3; i++)
		pthread_create(&t[i], NULL, sleeper, (void *)delays[i]);
	for (int i = 0; i < 3; i++)
		pthread_join(t[i], NULL);
	usleep(5000);
	printf("order %s, elapsed at least 155 ms: %d\n", order, since_start_ns() >= 155000000L);
	return 0;
}
