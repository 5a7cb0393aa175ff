/* Figure 6's situation: a request slot is handed from a producer to a
 * consumer without synchronization. With the recorded input (request 1)
 * both orders are harmless; with a request of 4 or more, the order where
 * the consumer sees the producer's value writes past the table. Only
 * multipath analysis (the request symbolic) finds it. */
#include <augur.h>
#include <pthread.h>
#include <stdio.h>

static int table[4];
static int slot;
static int request = 1;

static void *producer(void *arg) {
	(void)arg;
	slot = request; // race: slot spec-violated
	return NULL;
}

static void *consumer(void *arg) {
	(void)arg;
	int i = slot; // race: slot spec-violated
	table[i] = 1;
	return NULL;
}

int main(void) {
	augur_make_symbolic(&request, sizeof request, "request");
	augur_assume(request >= 0 && request < 100);
	pthread_t p, c;
	pthread_create(&c, NULL, consumer, NULL);
	pthread_create(&p, NULL, producer, NULL);
	pthread_join(p, NULL);
	pthread_join(c, NULL);
	printf("%d %d\n", table[0], table[1]);
	return 0;
}
