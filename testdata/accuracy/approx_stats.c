/* Two workers count the requests they serve in a shared statistic without
 * the lock, and compact a log every 1000 requests; the statistic is never
 * printed. Approximate computation (seed paper 001): a lost update only
 * delays a compaction, which changes nothing the program prints.
 *
 * hits: k-witness-harmless, between the two workers' updates.
 * hits2: k-witness-harmless, between one's update and the other's check. */
#include <pthread.h>
#include <stdio.h>

static int hits;
static int served[2];
static pthread_mutex_t mu = PTHREAD_MUTEX_INITIALIZER;

static void *worker(void *arg) {
	long id = (long)arg;
	for (int i = 0; i < 3; i++) {
		pthread_mutex_lock(&mu);
		served[id]++;
		pthread_mutex_unlock(&mu);
		hits = hits + 1; // race: hits k-witness-harmless // race: hits2 k-witness-harmless
		if (hits % 1000 == 0) // race: hits2 k-witness-harmless
			hits = 0;
	}
	return NULL;
}

int main(void) {
	pthread_t a, b;
	pthread_create(&a, NULL, worker, (void *)0L);
	pthread_create(&b, NULL, worker, (void *)1L);
	pthread_join(a, NULL);
	pthread_join(b, NULL);
	printf("served %d %d\n", served[0], served[1]);
	return 0;
}
