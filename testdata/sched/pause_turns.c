/* Two threads take turns, 1,000 rounds each, through a plain flag that
 * each spins on with the x86 spin-wait hint, _mm_pause(), publishing with
 * _mm_mfence(); __rdtsc() must never go backwards. Correct, and it prints
 * "1000 1000 rdtsc ok" under every schedule. The intrinsics stopped the
 * run as unmodeled calls; a pause is a preemption point, so a spin through
 * it hands over at once. */
#include <immintrin.h>
#include <pthread.h>
#include <stdio.h>
#include <x86intrin.h>

#define ROUNDS 1000

static int turn;
static long rounds[2];

static void *player(void *arg) {
	(void)arg;
	for (int i = 0; i < ROUNDS; i++) {
		while (turn != 1)
			_mm_pause();
		rounds[1]++;
		_mm_mfence();
		turn = 0;
	}
	return NULL;
}

int main(void) {
	pthread_t t;
	unsigned long long before = __rdtsc();
	pthread_create(&t, NULL, player, NULL);
	for (int i = 0; i < ROUNDS; i++) {
		while (turn != 0)
			_mm_pause();
		rounds[0]++;
		_mm_sfence();
		turn = 1;
	}
	pthread_join(t, NULL);
	_mm_lfence();
	unsigned long long after = __rdtsc();
	printf("%ld %ld rdtsc %s\n", rounds[0], rounds[1], after > before ? "ok" : "went backwards");
	return 0;
}
