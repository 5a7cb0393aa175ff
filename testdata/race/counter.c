/* Two threads increment a counter without a lock: a read-modify-write race
 * with itself, on one line. */
#include <pthread.h>
#include <stdio.h>

static int hits;

static void *worker(void *arg) {
	(void)arg;
	for (int i = 0; i < 100; i++)
		hits++; // race: hits output-differs
	return NULL;
}

int main(void) {
	pthread_t a, b;
	pthread_create(&a, NULL, worker, NULL);
	pthread_create(&b, NULL, worker, NULL);
	pthread_join(a, NULL);
	pthread_join(b, NULL);
	printf("hits %d\n", hits);
	return 0;
}
