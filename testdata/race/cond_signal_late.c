/* A completion signalled after its lock is let go. The worker marks the
 * job done under the lock, unlocks, and only then signals. main, woken by
 * the flag as soon as the lock is free, tears the completion down and
 * frees it, so the worker's signal can land on a destroyed condition in
 * freed memory. glibc's signal reads the condition's words, so natively
 * that is a use after free: the signal races with the destroy and with
 * the free. The fix is to signal before unlocking. */
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>

struct completion {
	pthread_mutex_t lock;
	pthread_cond_t cond;
	int done;
};

static void *worker(void *arg) {
	struct completion *c = arg;
	pthread_mutex_lock(&c->lock);
	c->done = 1;
	pthread_mutex_unlock(&c->lock);
	pthread_cond_signal(&c->cond); // race: destroyed spec-violated // race: freed spec-violated
	return NULL;
}

int main(void) {
	struct completion *c = malloc(sizeof *c);
	pthread_mutex_init(&c->lock, NULL);
	pthread_cond_init(&c->cond, NULL);
	c->done = 0;
	pthread_t t;
	pthread_create(&t, NULL, worker, c);
	pthread_mutex_lock(&c->lock);
	while (!c->done)
		pthread_cond_wait(&c->cond, &c->lock);
	pthread_mutex_unlock(&c->lock);
	pthread_cond_destroy(&c->cond); // race: destroyed spec-violated
	pthread_mutex_destroy(&c->lock);
	free(c); // race: freed spec-violated
	puts("done");
	pthread_join(t, NULL);
	return 0;
}
