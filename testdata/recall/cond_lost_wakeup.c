/* Hidden behind condition-variable order, and harmful. The waiter checks
 * `ready` without the lock before it waits; if the signal comes between
 * the check and the wait the wake-up is lost and the program deadlocks.
 * The race on `ready` is the cause. The signaller is created first and sets
 * the flag before the waiter looks under round robin. */
#include <pthread.h>
#include <stdio.h>

static pthread_mutex_t m = PTHREAD_MUTEX_INITIALIZER;
static pthread_cond_t cv = PTHREAD_COND_INITIALIZER;
static int ready;

static void *signaller(void *arg) {
	(void)arg;
	pthread_mutex_lock(&m);
	ready = 1; // race: ready spec-violated
	pthread_cond_signal(&cv);
	pthread_mutex_unlock(&m);
	return NULL;
}

static void *waiter(void *arg) {
	(void)arg;
	if (!ready) { // race: ready spec-violated
		pthread_mutex_lock(&m);
		pthread_cond_wait(&cv, &m);
		pthread_mutex_unlock(&m);
	}
	return NULL;
}

int main(void) {
	pthread_t s, w;
	pthread_create(&s, NULL, signaller, NULL);
	pthread_create(&w, NULL, waiter, NULL);
	pthread_join(s, NULL);
	pthread_join(w, NULL);
	puts("both done");
	return 0;
}
