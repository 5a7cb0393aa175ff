/* Hidden behind condition-variable order. The consumer records that it had
 * to wait, and only then updates `waits` outside the lock; the producer
 * updates `waits` outside the lock after signalling. The producer is
 * created first and has signalled before the consumer looks (round robin),
 * so the consumer never waits and never touches `waits`. Postponing the
 * producer's signal (interleaving generation) makes the consumer wait. */
#include <pthread.h>
#include <stdio.h>

static pthread_mutex_t m = PTHREAD_MUTEX_INITIALIZER;
static pthread_cond_t cv = PTHREAD_COND_INITIALIZER;
static int ready, waits;

static void *producer(void *arg) {
	(void)arg;
	pthread_mutex_lock(&m);
	ready = 1;
	pthread_cond_signal(&cv);
	pthread_mutex_unlock(&m);
	waits = waits * 2; // race: waits output-differs
	return NULL;
}

static void *consumer(void *arg) {
	(void)arg;
	int waited = 0;
	pthread_mutex_lock(&m);
	while (!ready) {
		waited = 1;
		pthread_cond_wait(&cv, &m);
	}
	pthread_mutex_unlock(&m);
	if (waited)
		waits += 1; // race: waits output-differs
	return NULL;
}

int main(void) {
	pthread_t p, c;
	pthread_create(&p, NULL, producer, NULL);
	pthread_create(&c, NULL, consumer, NULL);
	pthread_join(p, NULL);
	pthread_join(c, NULL);
	printf("waits %d\n", waits);
	return 0;
}
