/* A job queue guarded by a mutex and a condition variable; the stats
 * thread adds the queue's depth to its total without the mutex, while
 * the producer changes it. */
#include <pthread.h>
#include <stdio.h>

struct queue {
	pthread_mutex_t mu;
	pthread_cond_t ready;
	int depth; // fix: atomic rejected // fix: atomic verified
	int taken;
};

static struct queue q = {PTHREAD_MUTEX_INITIALIZER, PTHREAD_COND_INITIALIZER, 0, 0};
static long depth_seen;

static void *producer(void *arg) {
	for (int i = 0; i < 3; i++) {
		pthread_mutex_lock(&q.mu);
		q.depth++;
		pthread_cond_signal(&q.ready);
		pthread_mutex_unlock(&q.mu);
	}
	return NULL;
}

static void *consumer(void *arg) {
	for (int i = 0; i < 3; i++) {
		pthread_mutex_lock(&q.mu);
		while (q.depth == 0)
			pthread_cond_wait(&q.ready, &q.mu);
		q.depth--;
		q.taken++;
		pthread_mutex_unlock(&q.mu);
	}
	return NULL;
}

static void *stats(void *arg) {
	int d = q.depth; // fix: lock q.mu verified
	q.depth = d;
	depth_seen += d >= 0;
	return NULL;
}

int main(void) {
	pthread_t p, c, s;
	pthread_create(&p, NULL, producer, NULL);
	pthread_create(&c, NULL, consumer, NULL);
	pthread_create(&s, NULL, stats, NULL);
	pthread_join(p, NULL);
	pthread_join(c, NULL);
	pthread_join(s, NULL);
	printf("taken %d, depth %d\n", q.taken, q.depth);
	return 0;
}
