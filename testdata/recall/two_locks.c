/* Hidden behind lock order. The two threads never share a lock for the
 * racing field: the producer fills `job.size` under `jm` and then sets
 * `ready` under `rm`; the consumer checks `ready` under `rm` but reads
 * `job.size` with no lock at all when it finds nothing ready (a "peek" for
 * its log). Whenever the producer runs first, the consumer's peek follows
 * rm's release and is ordered; the peek races only when the consumer's
 * first check comes before the producer's fill. */
#include <pthread.h>
#include <stdio.h>

struct job {
	int size;
	int prio;
};
static struct job job;
static int ready;
static pthread_mutex_t jm = PTHREAD_MUTEX_INITIALIZER, rm = PTHREAD_MUTEX_INITIALIZER;

static void *producer(void *arg) {
	(void)arg;
	pthread_mutex_lock(&jm);
	job.size = 64; // race: peek output-differs
	job.prio = 1;
	pthread_mutex_unlock(&jm);
	pthread_mutex_lock(&rm);
	ready = 1;
	pthread_mutex_unlock(&rm);
	return NULL;
}

static void *consumer(void *arg) {
	(void)arg;
	for (int tries = 0; tries < 3; tries++) {
		pthread_mutex_lock(&rm);
		int r = ready;
		pthread_mutex_unlock(&rm);
		if (r)
			return NULL;
		printf("waiting, job size %d\n", job.size); // race: peek output-differs
	}
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
