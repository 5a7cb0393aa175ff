/* Deferred cancellation: a worker blocked in a condition wait is
 * cancelled, its cleanup handlers run innermost first (one of them with the
 * mutex the wait reacquired), and join sees PTHREAD_CANCELED; a thread with
 * cancellation disabled finishes its work; pthread_exit runs the handlers
 * too, and pthread_cleanup_pop(1) runs one without any exit. */
#include <pthread.h>
#include <stdio.h>
#include <unistd.h>

static pthread_mutex_t m = PTHREAD_MUTEX_INITIALIZER;
static pthread_cond_t never = PTHREAD_COND_INITIALIZER;
static int ready;

static void note(void *what) { printf("cleanup: %s\n", (const char *)what); }
static void unlock(void *mu) {
	printf("cleanup: unlock\n");
	pthread_mutex_unlock(mu);
}

static void *waiter(void *arg) {
	pthread_cleanup_push(note, "outer");
	pthread_mutex_lock(&m);
	pthread_cleanup_push(unlock, &m);
	ready = 1;
	for (;;)
		pthread_cond_wait(&never, &m);
	pthread_cleanup_pop(1);
	pthread_cleanup_pop(1);
	return NULL;
}

static void *stubborn(void *arg) {
	int old;
	pthread_setcancelstate(PTHREAD_CANCEL_DISABLE, &old);
	usleep(1000);
	pthread_testcancel();
	pthread_setcancelstate(old, NULL);
	return (void *)7L;
}

static void *exiter(void *arg) {
	pthread_cleanup_push(note, "before exit");
	pthread_cleanup_push(note, "popped without exit");
	pthread_cleanup_pop(1);
	pthread_exit((void *)42L);
	pthread_cleanup_pop(0);
	return NULL;
}

int main(void) {
	pthread_t w, s, e;
	void *r;
	pthread_create(&w, NULL, waiter, NULL);
	while (1) {
		pthread_mutex_lock(&m);
		int ok = ready;
		pthread_mutex_unlock(&m);
		if (ok)
			break;
		usleep(100);
	}
	pthread_cancel(w);
	pthread_join(w, &r);
	printf("waiter canceled: %d\n", r == PTHREAD_CANCELED);
	pthread_create(&s, NULL, stubborn, NULL);
	pthread_cancel(s);
	pthread_join(s, &r);
	printf("stubborn returned %ld\n", (long)r);
	pthread_create(&e, NULL, exiter, NULL);
	pthread_join(e, &r);
	printf("exiter returned %ld\n", (long)r);
	printf("mutex free again: %d\n", pthread_mutex_trylock(&m) == 0);
	return 0;
}
