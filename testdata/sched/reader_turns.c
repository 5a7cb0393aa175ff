/* Two threads take turns, 1,000 rounds each, through a plain int that each
 * reads through a function of its own (clang -O0 does not inline it):
 * ad hoc synchronization, a data race on turn by the letter, correct in
 * practice; it prints "1000 1000" under every schedule. The loop calls, so
 * it was not taken for a spin loop, and the reader has no loop of its own:
 * each hand-over cost a whole time slice (a million instructions), two
 * billion for the run, a hang. A loop whose calls are all to short
 * functions that only read (called from such loops alone) is a spin loop,
 * and the readers' loads are preemption points (ir/spin.go). */
#include <pthread.h>
#include <stdio.h>

#define ROUNDS 1000

struct table {
	int turn;
	long rounds[2];
};

static struct table tab;

static int my_turn(const struct table *t, int me) {
	if (me < 0)
		return 0;
	return t->turn == me;
}

static void play(int me) {
	for (int i = 0; i < ROUNDS; i++) {
		while (!my_turn(&tab, me))
			;
		tab.rounds[me]++;
		tab.turn = 1 - me;
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
	printf("%ld %ld\n", tab.rounds[0], tab.rounds[1]);
	return 0;
}
