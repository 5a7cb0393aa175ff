/* Hidden behind lock order, with a reader-writer lock. Readers take the
 * read lock to look up a slot, then (outside it) bump the slot's hit count:
 * a write with no lock, racing with the writer's reset of the hit counts
 * under the write lock. Any schedule where the writer's reset precedes the
 * readers' read locks orders them; the race needs a reader's bump after
 * the writer's turn at the lock but before its reset is seen. */
#include <pthread.h>
#include <stdio.h>

static pthread_rwlock_t rw = PTHREAD_RWLOCK_INITIALIZER;
static int table[4] = {10, 20, 30, 40};
static int hits[4];

static void *reader(void *arg) {
	int slot = (int)(long)arg;
	for (int i = 0; i < 5; i++) {
		pthread_rwlock_rdlock(&rw);
		int v = table[slot];
		pthread_rwlock_unlock(&rw);
		if (v > 0 && i == 4)
			hits[slot]++; // race: hits k-witness-harmless
	}
	return NULL;
}

static void *writer(void *arg) {
	(void)arg;
	for (int i = 0; i < 5; i++) {
		pthread_rwlock_wrlock(&rw);
		table[i % 4] += 1;
		if (i == 0)
			hits[1] = 0; // race: hits k-witness-harmless
		pthread_rwlock_unlock(&rw);
	}
	return NULL;
}

int main(void) {
	pthread_t w, r;
	pthread_create(&w, NULL, writer, NULL);
	pthread_create(&r, NULL, reader, (void *)1L);
	pthread_join(w, NULL);
	pthread_join(r, NULL);
	printf("table %d %d %d %d\n", table[0], table[1], table[2], table[3]);
	return 0;
}
