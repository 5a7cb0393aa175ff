/* Hidden behind lock order. A bounded ring of 4 slots under one lock; the
 * producer counts a dropped item outside the lock when the ring is full,
 * and the consumer reports the drop count outside the lock when it finds
 * the ring empty. Alternating at the lock (round robin) the ring is never
 * full; running the producer first fills it but the consumer's empty
 * report then comes after every drop, ordered by the lock. */
#include <pthread.h>
#include <stdio.h>

static pthread_mutex_t m = PTHREAD_MUTEX_INITIALIZER;
static int ring[4], head, tail, dropped;

static void *producer(void *arg) {
	(void)arg;
	for (int i = 0; i < 10; i++) {
		pthread_mutex_lock(&m);
		int full = tail - head == 4;
		if (!full)
			ring[tail++ % 4] = i;
		pthread_mutex_unlock(&m);
		if (full)
			dropped++; // race: dropped output-differs
	}
	return NULL;
}

static void *consumer(void *arg) {
	(void)arg;
	int got = 0;
	for (int i = 0; i < 10; i++) {
		pthread_mutex_lock(&m);
		int empty = tail == head;
		if (!empty)
			got += ring[head++ % 4];
		pthread_mutex_unlock(&m);
		if (empty && i == 9)
			printf("empty at the end, %d dropped\n", dropped); // race: dropped output-differs
	}
	printf("got %d\n", got);
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
