/* Hidden behind lock order. Both workers take the same lock fifty times;
 * `progress` is written outside it at the writer's 40th iteration and read
 * outside it at the reader's 3rd. Alternating at the lock (round robin), or
 * running one worker whole before the other (lock reversals, most PCT
 * schedules), orders the two accesses through the lock. Only holding the
 * reader at its read while the writer runs 40 iterations makes them
 * concurrent: race-directed scheduling does that. */
#include <pthread.h>
#include <stdio.h>

static pthread_mutex_t m = PTHREAD_MUTEX_INITIALIZER;
static int count, progress;

static void *writer(void *arg) {
	(void)arg;
	for (int i = 0; i < 50; i++) {
		pthread_mutex_lock(&m);
		count++;
		pthread_mutex_unlock(&m);
		if (i == 40)
			progress = i; // race: progress output-differs
	}
	return NULL;
}

static void *reader(void *arg) {
	(void)arg;
	for (int j = 0; j < 50; j++) {
		pthread_mutex_lock(&m);
		count++;
		pthread_mutex_unlock(&m);
		if (j == 2)
			printf("progress %d\n", progress); // race: progress output-differs
	}
	return NULL;
}

int main(void) {
	pthread_t a, b;
	pthread_create(&a, NULL, writer, NULL);
	pthread_create(&b, NULL, reader, NULL);
	pthread_join(a, NULL);
	pthread_join(b, NULL);
	printf("count %d\n", count);
	return 0;
}
