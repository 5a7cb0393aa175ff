/* main waits on a condition with a deadline 100 ms ahead while the thread
 * that signals it sleeps 300 ms first: the wait times out, as natively.
 * (augur once gave a timed condition wait no deadline: with nothing else
 * able to run, virtual time jumped to the sleeper's wake-up, and the wait
 * ended signaled.) A second wait, on a deadline already past, times out
 * at once. */
#include <errno.h>
#include <pthread.h>
#include <stdio.h>
#include <time.h>
#include <unistd.h>

static pthread_mutex_t mu = PTHREAD_MUTEX_INITIALIZER;
static pthread_cond_t cv = PTHREAD_COND_INITIALIZER;
static int ready;

static void *late(void *arg) {
	(void)arg;
	usleep(300000);
	pthread_mutex_lock(&mu);
	ready = 1;
	pthread_cond_signal(&cv);
	pthread_mutex_unlock(&mu);
	return NULL;
}

static struct timespec after_ms(long ms) {
	struct timespec t;
	clock_gettime(CLOCK_REALTIME, &t);
	t.tv_nsec += ms * 1000000L;
	t.tv_sec += t.tv_nsec / 1000000000L;
	t.tv_nsec %= 1000000000L;
	return t;
}

int main(void) {
	pthread_t t;
	pthread_create(&t, NULL, late, NULL);
	struct timespec until = after_ms(100);
	pthread_mutex_lock(&mu);
	int rc = 0;
	while (!ready && rc != ETIMEDOUT)
		rc = pthread_cond_timedwait(&cv, &mu, &until);
	printf("first wait: %s\n", rc == ETIMEDOUT ? "timed out" : "signaled");
	struct timespec past = {1, 0}; /* 1970 */
	rc = pthread_cond_timedwait(&cv, &mu, &past);
	printf("past deadline: %s\n", rc == ETIMEDOUT ? "timed out" : "signaled");
	pthread_mutex_unlock(&mu);
	pthread_join(t, NULL);
	printf("ready %d\n", ready);
	return 0;
}
