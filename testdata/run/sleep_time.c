/* Sleeping threads: sleeps order nothing here, but the program must finish
 * and time must move forward. */
#include <pthread.h>
#include <stdio.h>
#include <sys/time.h>
#include <time.h>
#include <unistd.h>

static pthread_mutex_t mu = PTHREAD_MUTEX_INITIALIZER;
static int naps;

static void *napper(void *arg) {
	long ms = (long)arg;
	struct timespec ts = {0, ms * 1000000L};
	nanosleep(&ts, NULL);
	usleep(1000);
	pthread_mutex_lock(&mu);
	naps++;
	pthread_mutex_unlock(&mu);
	return NULL;
}

int main(void) {
	struct timeval a, b;
	gettimeofday(&a, NULL);
	time_t t0 = time(NULL);
	pthread_t t[3];
	for (long i = 0; i < 3; i++)
		pthread_create(&t[i], NULL, napper, (void *)(5 * (i + 1)));
	for (int i = 0; i < 3; i++)
		pthread_join(t[i], NULL);
	gettimeofday(&b, NULL);
	long us = (b.tv_sec - a.tv_sec) * 1000000L + (b.tv_usec - a.tv_usec);
	printf("naps %d, time moved forward %d, clock sane %d\n", naps, us > 0, time(NULL) >= t0);
	return 0;
}
