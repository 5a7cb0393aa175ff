/* Two threads take turns through an atomic flag, 2,000 rounds each: each
 * spins until the flag names it, counts its round and hands the turn over.
 * Correct, and its output does not depend on the schedule; a schedule that
 * lets a spinning thread keep the processor for a whole time slice per
 * hand-over makes it look like a hang. */
#include <pthread.h>
#include <stdatomic.h>
#include <stdio.h>

#define ROUNDS 2000

static atomic_int turn;
static long rounds[2];

static void *player(void *arg) {
	int me = (int)(long)arg;
	for (int i = 0; i < ROUNDS; i++) {
		while (atomic_load(&turn) != me)
			;
		rounds[me]++;
		atomic_store(&turn, 1 - me);
	}
	return NULL;
}

int main(void) {
	pthread_t t[2];
	for (long i = 0; i < 2; i++)
		pthread_create(&t[i], NULL, player, (void *)i);
	for (int i = 0; i < 2; i++)
		pthread_join(t[i], NULL);
	printf("%ld %ld\n", rounds[0], rounds[1]);
	return 0;
}
