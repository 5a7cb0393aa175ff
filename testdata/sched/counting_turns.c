/* Two threads take turns, 1,000 rounds each, through a plain int that each
 * spins on until it names it, counting its spins as it waits (the way a
 * program measures contention or backs off): ad hoc synchronization, a
 * data race on turn by the letter, correct in practice. It prints
 * "1000 1000 waited" under every schedule. The count is carried round the
 * spin loop, so ir/spin.go took it for a loop that could end on its own
 * and left its loads plain: each hand-over cost a whole time slice (a
 * million instructions), two billion for the run, a hang. A loop whose
 * exits read nothing it carries can only end through another thread, and
 * its loads are preemption points now. */
#include <pthread.h>
#include <stdio.h>

#define ROUNDS 1000

static int turn;
static long rounds[2];
static long spins[2];

static void play(int me) {
	for (int i = 0; i < ROUNDS; i++) {
		long n = 0;
		while (turn != me)
			n++;
		spins[me] += n;
		rounds[me]++;
		turn = 1 - me;
	}
}

static void *player(void *arg) {
	(void)arg;
	play(1);
	return NULL;
}

int main(void) {
	pthread_t t;
	pthread_create(&t, NULL, player, NULL);
	play(0);
	pthread_join(t, NULL);
	printf("%ld %ld %s\n", rounds[0], rounds[1], spins[0] + spins[1] >= 0 ? "waited" : "?");
	return 0;
}
