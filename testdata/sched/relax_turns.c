/* Two threads take turns, 1,000 rounds each, through a plain int that each
 * spins on, calling a cpu_relax() of its own between reads, written with
 * inline assembly as kernels and older C libraries write it ("pause", or
 * its other spelling "rep; nop"). It prints "1000 1000" under every
 * schedule. The call kept the loop from being taken for a spin loop, and
 * an inline-assembly pause lowered to nothing, so each hand-over cost a
 * whole time slice (a million instructions): two billion for the run, a
 * hang. An inline-assembly pause is a preemption point now, as _mm_pause
 * is (testdata/sched/pause_turns.c). */
#include <pthread.h>
#include <stdio.h>

#define ROUNDS 1000

static int turn;
static long rounds[2];

static void cpu_relax(void) { __asm__ __volatile__("pause" ::: "memory"); }

static void rep_nop(void) { __asm__ __volatile__("rep; nop" ::: "memory"); }

static void *player(void *arg) {
	(void)arg;
	for (int i = 0; i < ROUNDS; i++) {
		while (turn != 1)
			rep_nop();
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
			cpu_relax();
		rounds[0]++;
		turn = 1;
	}
	pthread_join(t, NULL);
	printf("%ld %ld\n", rounds[0], rounds[1]);
	return 0;
}
