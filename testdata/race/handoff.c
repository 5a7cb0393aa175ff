/* The producer writes data before taking the lock; the consumer reads it
 * after taking the same lock. When the producer's critical section comes
 * first, the lock orders the two accesses and no race is visible; only a
 * schedule where the consumer locks first exposes it. */
#include <pthread.h>
#include <stdio.h>

static pthread_mutex_t mu = PTHREAD_MUTEX_INITIALIZER;
static int data;
static int ready;

static void *producer(void *arg) {
	(void)arg;
	data = 42; // race: data output-differs
	pthread_mutex_lock(&mu);
	ready = 1;
	pthread_mutex_unlock(&mu);
	return NULL;
}

static void *consumer(void *arg) {
	(void)arg;
	pthread_mutex_lock(&mu);
	int r = ready;
	pthread_mutex_unlock(&mu);
	int d = data; // race: data output-differs
	printf("ready %d data %d\n", r, d);
	return NULL;
}

int main(void) {
	pthread_t p, c;
	pthread_create(&p, NULL, producer, NULL);
	pthread_create(&c, NULL, consumer, NULL);
	pthread_join(p, NULL);
	pthread_join(c, NULL);
	return 0;
}
