/* A consumer uses a buffer pointer that a producer sets without
 * synchronization: a consumer that runs first follows NULL.
 *
 * buffer: spec-violated. The consumer's read before the producer's write
 * dereferences NULL. */
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>

static int *buffer;
static int storage[4] = {1, 2, 3, 4};

static void *producer(void *arg) {
	(void)arg;
	buffer = storage; // race: buffer spec-violated
	return NULL;
}

static void *consumer(void *arg) {
	(void)arg;
	int *b = buffer; // race: buffer spec-violated
	return (void *)(long)b[2];
}

int main(void) {
	pthread_t p, c;
	void *r;
	pthread_create(&p, NULL, producer, NULL);
	pthread_create(&c, NULL, consumer, NULL);
	pthread_join(p, NULL);
	pthread_join(c, &r);
	printf("%ld\n", (long)r);
	return 0;
}
