/* Thread-specific data destructors run at a thread's exit, as glibc runs
 * them: when the start routine returns and when it calls pthread_exit,
 * with the value cleared first, again for a value a destructor sets (a
 * second pass), and never for a deleted key. The exit value is the
 * thread's, not a destructor's. Prints the same natively and under augur
 * (before 2026-11-26 no destructor ran). */
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>

static pthread_key_t a, b;
static int calls;
static pthread_mutex_t mu = PTHREAD_MUTEX_INITIALIZER;

static void destroy_a(void *p) {
	pthread_mutex_lock(&mu);
	calls++;
	pthread_mutex_unlock(&mu);
	free(p);
	pthread_setspecific(b, (void *)1); /* due in a second pass */
}

static void destroy_b(void *p) {
	pthread_mutex_lock(&mu);
	calls += 10;
	pthread_mutex_unlock(&mu);
}

static void *worker(void *exit_early) {
	pthread_setspecific(a, malloc(4));
	if (exit_early)
		pthread_exit((void *)7);
	return (void *)5;
}

static void *holder(void *arg) {
	pthread_setspecific(b, (void *)1);
	return NULL;
}

int main(void) {
	pthread_key_create(&a, destroy_a);
	pthread_key_create(&b, destroy_b);
	pthread_t t;
	void *r;
	pthread_create(&t, NULL, worker, NULL);
	pthread_join(t, &r);
	printf("returned %ld, calls %d\n", (long)r, calls);
	pthread_create(&t, NULL, worker, &t);
	pthread_join(t, &r);
	printf("pthread_exit %ld, calls %d\n", (long)r, calls);
	pthread_key_delete(b);
	pthread_create(&t, NULL, holder, NULL);
	pthread_join(t, &r);
	printf("after delete, calls %d\n", calls);
	return 0;
}
