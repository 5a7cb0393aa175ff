/* The filler checks the cursor, then reads it again to index the slots,
 * while the mover advances it. _Atomic makes each read atomic, but an
 * advance between the check and the use still writes past the array: the
 * atomic fix removes the data race and not the harm, and is rejected. */
#include <pthread.h>
#include <stdio.h>

#define SLOTS 3
static int slots[SLOTS];
static int cursor; // fix: atomic rejected

static void *filler(void *arg) {
	for (int i = 0; i < SLOTS; i++)
		if (cursor < SLOTS) // race: cursor
			slots[cursor] = i + 1;
	return NULL;
}

static void *mover(void *arg) {
	for (int i = 0; i < SLOTS; i++)
		cursor++;
	return NULL;
}

int main(void) {
	pthread_t f, m;
	pthread_create(&f, NULL, filler, NULL);
	pthread_create(&m, NULL, mover, NULL);
	pthread_join(f, NULL);
	pthread_join(m, NULL);
	printf("%d %d %d\n", slots[0], slots[1], slots[2]);
	return 0;
}
