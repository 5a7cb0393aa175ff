/* Each bucket of the tally has its own mutex, in a parallel array: the
 * counters add under locks[k]; the bonus adds to one bucket without its
 * lock, and an update between its read and its write is lost. The lock
 * fix names the bucket's mutex with the bonus's own index. */
#include <pthread.h>
#include <stdio.h>

#define BUCKETS 4

static pthread_mutex_t locks[BUCKETS] = {PTHREAD_MUTEX_INITIALIZER, PTHREAD_MUTEX_INITIALIZER,
                                         PTHREAD_MUTEX_INITIALIZER, PTHREAD_MUTEX_INITIALIZER};
static long tally[BUCKETS];

static void *count(void *arg) {
	for (int i = 0; i < 8; i++) {
		int k = i % BUCKETS;
		pthread_mutex_lock(&locks[k]);
		tally[k] += 1;
		pthread_mutex_unlock(&locks[k]);
	}
	return NULL;
}

static void *bonus(void *arg) {
	int b = *(int *)arg;
	tally[b] += 10; // race: tally // fix: lock locks[b] verified
	return NULL;
}

int main(void) {
	pthread_t c, d;
	int which = 2;
	pthread_create(&c, NULL, count, NULL);
	pthread_create(&d, NULL, bonus, &which);
	pthread_join(c, NULL);
	pthread_join(d, NULL);
	long sum = 0;
	for (int k = 0; k < BUCKETS; k++)
		sum += tally[k];
	printf("tally %ld\n", sum);
	return 0;
}
