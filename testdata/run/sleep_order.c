/* usleep and nanosleep order threads by virtual time: the thread that
 * sleeps less reports first, and the clock advances by what was slept. */
#include <pthread.h>
#include <stdio.h>
#include <time.h>
#include <unistd.h>

static pthread_mutex_t m = PTHREAD_MUTEX_INITIALIZER;
static char order[8];
static int n;

static void *sleeper(void *arg) {
	long ms = (long)arg;
	struct timespec ts = {0, ms * 1000000L};
	nanosleep(&ts, NULL);
	pthread_mutex_lock(&m);
	order[n++] = (char)('0' + ms / 10);
	pthread_mutex_unlock(&m);
	return NULL;
}

int main(void) {
	struct timespec start, end;
	clock_gettime(CLOCK_MONOTONIC, &start);
	pthread_t t[3];
	long delays[] = {30, 10, 20};
	for (int i = 0; i < 3; i++)
		pthread_create(&t[i], NULL, sleeper, (void *)delays[i]);
	for (int i = 0; i < 3; i++)
		pthread_join(t[i], NULL);
	usleep(5000);
	clock_gettime(CLOCK_MONOTONIC, &end);
	long ms = (end.tv_sec - start.tv_sec) * 1000 + (end.tv_nsec - start.tv_nsec) / 1000000;
	printf("order %s, elapsed at least 35 ms: %d\n", order, ms >= 35);
	return 0;
}
