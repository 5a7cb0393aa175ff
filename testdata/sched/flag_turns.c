/* Two threads take turns, 1,000 rounds each, through a plain int that each
 * spins on until it names it: ad hoc synchronization, a data race on turn
 * by the letter, and correct in practice; it prints "1000 1000" under every
 * schedule. A spin on a plain flag reached no preemption point, so each
 * hand-over cost a whole time slice (a million instructions): a billion
 * for the run, reported as a hang. Its loads are preemption points now
 * (ir/spin.go). */
#include <pthread.h>
#include <stdio.h>

#define ROUNDS 1000

static int turn;
static long rounds[2];

static void *player(void *arg) {
	(void)arg;
	for (int i = 0; i < ROUNDS; i++) {
		while (turn != 1)
			;
		rounds[1]++;
		turn = 0;
	}
	return NULL;
}

int main(void) {
	pthread_t t;
	pthread_create(&t, NULL, player, NULL);
	for (int i = 0; i < ROUNDS; i++) {
		while (turn != 0)
			;
		rounds[0]++;
		turn = 1;
	}
	pthread_join(t, NULL);
	printf("%ld %ld\n", rounds[0], rounds[1]);
	return 0;
}
