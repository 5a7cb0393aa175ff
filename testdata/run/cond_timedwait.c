/* Timed waits: a condition wait that times out, one that is signalled, and
 * a timed lock on a free mutex. */
#include <errno.h>
#include <pthread.h>
#include <stdio.h>
#include <time.h>

static pthread_mutex_t mu = PTHREAD_MUTEX_INITIALIZER;
static pthread_cond_t cv = PTHREAD_COND_INITIALIZER;
static int ready;

static void deadline(struct timespec *ts, long ms) {
	clock_gettime(CLOCK_REALTIME, ts);
	ts->tv_nsec += ms * 1000000L;
	ts->tv_sec += ts->tv_nsec / 1000000000L;
	ts->tv_nsec %= 1000000000L;
}

static void *signaller(void *arg) {
	(void)arg;
	pthread_mutex_lock(&mu);
	ready = 1;
	pthread_cond_signal(&cv);
	pthread_mutex_unlock(&mu);
	return NULL;
}

int main(void) {
	struct timespec ts;
	pthread_mutex_lock(&mu);
	deadline(&ts, 20);
	int r = pthread_cond_timedwait(&cv, &mu, &ts);
	printf("nobody signals: %s\n", r == ETIMEDOUT ? "ETIMEDOUT" : "woken");
	pthread_t t;
	pthread_create(&t, NULL, signaller, NULL);
	while (!ready) {
		deadline(&ts, 5000);
		r = pthread_cond_timedwait(&cv, &mu, &ts);
		if (r != 0)
			break;
	}
	printf("signalled: ready=%d r=%d\n", ready, r);
	pthread_mutex_unlock(&mu);
	pthread_join(t, NULL);
	deadline(&ts, 10);
	printf("timedlock free mutex: %d\n", pthread_mutex_timedlock(&mu, &ts));
	pthread_mutex_unlock(&mu);
	return 0;
}
