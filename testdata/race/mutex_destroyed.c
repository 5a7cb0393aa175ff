/* A mutex destroyed while a worker may still take it: main tears the
 * counter's lock down as soon as it has started the worker, before it
 * joins it. POSIX leaves that undefined; glibc's lock of a destroyed mutex
 * returns EINVAL and takes nothing, and the worker checks what its lock
 * returned. The destroy and the lock race as a write and a read of the
 * mutex (ThreadSanitizer reports them the same way). */
#include <assert.h>
#include <pthread.h>
#include <stdio.h>

static pthread_mutex_t guard = PTHREAD_MUTEX_INITIALIZER;
static int hits;

static void *worker(void *arg) {
	(void)arg;
	int err = pthread_mutex_lock(&guard); // race: guard spec-violated
	assert(err == 0);
	hits++;
	pthread_mutex_unlock(&guard);
	return NULL;
}

int main(void) {
	pthread_t t;
	pthread_create(&t, NULL, worker, NULL);
	pthread_mutex_destroy(&guard); // race: guard spec-violated
	pthread_join(t, NULL);
	printf("%d\n", hits);
	return 0;
}
