/* Spinlocks, detached threads and pthread_exit (also from main, which then
 * waits for the other threads before the process exits with status 0). */
#include <pthread.h>
#include <stdio.h>

static pthread_spinlock_t spin;
static pthread_mutex_t mu = PTHREAD_MUTEX_INITIALIZER;
static pthread_cond_t cv = PTHREAD_COND_INITIALIZER;
static long total;
static int finished;

static void *adder(void *arg) {
	long k = (long)arg;
	for (int i = 0; i < 100; i++) {
		pthread_spin_lock(&spin);
		total += k;
		pthread_spin_unlock(&spin);
	}
	pthread_mutex_lock(&mu);
	finished++;
	pthread_cond_broadcast(&cv);
	pthread_mutex_unlock(&mu);
	if (k == 2)
		pthread_exit((void *)k);
	return NULL;
}

static void *last_word(void *arg) {
	(void)arg;
	pthread_mutex_lock(&mu);
	while (finished < 3)
		pthread_cond_wait(&cv, &mu);
	pthread_mutex_unlock(&mu);
	printf("total %ld from %d threads\n", total, finished);
	return NULL;
}

int main(void) {
	pthread_spin_init(&spin, PTHREAD_PROCESS_PRIVATE);
	pthread_attr_t attr;
	pthread_attr_init(&attr);
	pthread_attr_setdetachstate(&attr, PTHREAD_CREATE_DETACHED);
	int state;
	pthread_attr_getdetachstate(&attr, &state);
	printf("detached attr %d\n", state == PTHREAD_CREATE_DETACHED);
	pthread_t t[3], w;
	for (long i = 0; i < 3; i++)
		pthread_create(&t[i], &attr, adder, (void *)(i + 1));
	pthread_attr_destroy(&attr);
	pthread_create(&w, NULL, last_word, NULL);
	pthread_detach(w);
	fflush(stdout);
	pthread_exit(NULL);
}
