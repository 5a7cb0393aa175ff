/* Two races hidden behind one lock order. Both workers take the same lock
 * fifty times; at its 40th iteration the writer sets `progress` and then
 * `stage` outside the lock, and at its 3rd the reader reads both outside
 * it. Alternating at the lock, or running one worker whole before the
 * other, orders each pair through the lock: detection sees two potential
 * races. The race-directed run at the first holds the reader at its read
 * of `progress` while the writer runs its 40 iterations: it finds the race
 * on `stage` as well, so the run planned at that pair has nothing left to
 * find (a detection that runs it ahead of its turn, on another core, drops
 * it). */
#include <pthread.h>
#include <stdio.h>

static pthread_mutex_t m = PTHREAD_MUTEX_INITIALIZER;
static int count, progress, stage;

static void *writer(void *arg) {
	(void)arg;
	for (int i = 0; i < 50; i++) {
		pthread_mutex_lock(&m);
		count++;
		pthread_mutex_unlock(&m);
		if (i == 40) {
			progress = i; // race: progress output-differs
			stage = 2;    // race: stage output-differs
		}
	}
	return NULL;
}

static void *reader(void *arg) {
	(void)arg;
	for (int j = 0; j < 50; j++) {
		pthread_mutex_lock(&m);
		count++;
		pthread_mutex_unlock(&m);
		if (j == 2) {
			int p = progress; // race: progress output-differs
			int s = stage;    // race: stage output-differs
			printf("progress %d stage %d\n", p, s);
		}
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
