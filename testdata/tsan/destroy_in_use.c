/* A mutex destroyed while the worker that locks it has not been joined:
 * main waits only for a plain flag the worker sets once it has unlocked,
 * so nothing orders the worker's lock before the destroy. Natively the
 * flag makes the lock come first, and ThreadSanitizer reports the destroy
 * against that lock (and the flag's own race); augur finds both, and the
 * other order of the first, where the worker's lock of the destroyed
 * mutex returns EINVAL and its check fails (TestTSanWarningsClassified). */
#include <assert.h>
#include <pthread.h>
#include <stdio.h>

static pthread_mutex_t guard = PTHREAD_MUTEX_INITIALIZER;
static volatile int unlocked;
static int hits;

static void *worker(void *arg) {
	(void)arg;
	int err = pthread_mutex_lock(&guard);
	assert(err == 0);
	hits++;
	pthread_mutex_unlock(&guard);
	unlocked = 1;
	return NULL;
}

int main(void) {
	pthread_t t;
	pthread_create(&t, NULL, worker, NULL);
	while (!unlocked)
		;
	pthread_mutex_destroy(&guard);
	pthread_join(t, NULL);
	printf("%d\n", hits);
	return 0;
}
