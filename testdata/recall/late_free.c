/* Hidden behind lock order, and harmful. The owner frees the buffer after
 * its last use under the lock; a helper that is slow to start peeks at the
 * buffer without the lock. When the helper runs first (round robin runs a
 * new thread at once), the peek precedes the owner's lock section; the use
 * after free needs the helper's peek after the owner's free. */
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>

static pthread_mutex_t m = PTHREAD_MUTEX_INITIALIZER;
static int *buf;
static int done;

static void *owner(void *arg) {
	(void)arg;
	for (int i = 0; i < 8; i++) {
		pthread_mutex_lock(&m);
		buf[i % 4] += i;
		pthread_mutex_unlock(&m);
	}
	pthread_mutex_lock(&m);
	done = 1;
	pthread_mutex_unlock(&m);
	free(buf); // race: uaf spec-violated
	return NULL;
}

static void *helper(void *arg) {
	(void)arg;
	int seen = 0;
	for (int i = 0; i < 6; i++) {
		pthread_mutex_lock(&m);
		seen += done;
		pthread_mutex_unlock(&m);
	}
	if (!seen)
		return NULL;
	return (void *)(long)buf[0]; // race: uaf spec-violated
}

int main(void) {
	buf = calloc(4, sizeof *buf);
	pthread_t o, h;
	pthread_create(&h, NULL, helper, NULL);
	pthread_create(&o, NULL, owner, NULL);
	pthread_join(o, NULL);
	pthread_join(h, NULL);
	puts("done");
	return 0;
}
