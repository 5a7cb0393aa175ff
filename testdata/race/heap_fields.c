/* Statistics on the heap: misses are counted under the lock, hits are not.
 * Only the hits field races. */
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>

struct stats {
	long hits;
	long misses;
	pthread_mutex_t mu;
};

static void *worker(void *arg) {
	struct stats *s = arg;
	for (int i = 0; i < 10; i++) {
		if (i % 3)
			s->hits++; // race: hits output-differs
		else {
			pthread_mutex_lock(&s->mu);
			s->misses++;
			pthread_mutex_unlock(&s->mu);
		}
	}
	return NULL;
}

int main(void) {
	struct stats *s = calloc(1, sizeof *s);
	pthread_mutex_init(&s->mu, NULL);
	pthread_t t[2];
	for (int i = 0; i < 2; i++)
		pthread_create(&t[i], NULL, worker, s);
	for (int i = 0; i < 2; i++)
		pthread_join(t[i], NULL);
	printf("%ld %ld\n", s->hits, s->misses);
	free(s);
	return 0;
}
