/* A lost wake-up: the waiter checks the flag, then waits, without the
 * lock around both; a signal between the check and the wait is lost and
 * the waiter sleeps for ever.
 *
 * expect: deadlock (the line marked `bug:`)
 */
#include <pthread.h>

static pthread_mutex_t m = PTHREAD_MUTEX_INITIALIZER;
static pthread_cond_t cv = PTHREAD_COND_INITIALIZER;
static int done;

static void *finisher(void *arg) {
	(void)arg;
	pthread_mutex_lock(&m);
	done = 1;
	pthread_cond_signal(&cv);
	pthread_mutex_unlock(&m);
	return 0;
}

int main(void) {
	pthread_t t;
	pthread_create(&t, 0, finisher, 0);
	int seen = done; /* checked without the lock */
	if (!seen) {
		pthread_mutex_lock(&m);
		pthread_cond_wait(&cv, &m); // bug: deadlock
		pthread_mutex_unlock(&m);
	}
	pthread_join(t, 0);
	return 0;
}
