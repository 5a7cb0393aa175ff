/* A sense-reversing barrier in the style of the SPLASH-2 macro packages:
 * arrivals counted with `lock cmpxchg` written without a size suffix, the
 * counter a long given as a memory input ("m"), the accumulator tied to
 * the output with its register named ("0a"). The registers are 32 bits,
 * so the instruction compares and swaps the counter's low half. The
 * macros read the counter and the sense plainly; here they are atomic
 * loads and stores, so that the program has no data race (testdata/run's
 * programs have none). The output must be native's: every phase's
 * writes are seen by the other thread after the barrier. */
#include <pthread.h>
#include <stdio.h>

typedef struct {
	volatile int sense;
	volatile long arrived;
} barrier_t;

#define THREADS 2
#define PHASES 4

static barrier_t bar = {1, 0};
static int slot[THREADS];
static int seen[THREADS];

static void barrier_wait(barrier_t *b, int n) {
	int mine = __atomic_load_n(&b->sense, __ATOMIC_ACQUIRE);
	for (;;) {
		int before = __atomic_load_n(&b->arrived, __ATOMIC_RELAXED), after = before + mine, got;
		__asm__ __volatile__("lock cmpxchg %1,%2" : "=a"(got) : "r"(after), "m"(b->arrived), "0a"(before) : "memory");
		if (got == before) {
			if ((after == n && mine == 1) || (after == 0 && mine == -1))
				__atomic_store_n(&b->sense, -mine, __ATOMIC_RELEASE);
			break;
		}
	}
	while (__atomic_load_n(&b->sense, __ATOMIC_ACQUIRE) == mine)
		;
}

static void *phase_worker(void *arg) {
	int me = (int)(long)arg, other = 1 - me;
	for (int phase = 1; phase <= PHASES; phase++) {
		slot[me] = phase * 10 + me;
		barrier_wait(&bar, THREADS);
		seen[me] += slot[other];
		barrier_wait(&bar, THREADS);
	}
	return 0;
}

int main(void) {
	pthread_t t[THREADS];
	for (long i = 0; i < THREADS; i++)
		pthread_create(&t[i], 0, phase_worker, (void *)i);
	for (int i = 0; i < THREADS; i++)
		pthread_join(t[i], 0);
	printf("thread 0 saw %d, thread 1 saw %d, counter %ld\n", seen[0], seen[1], bar.arrived);
	return 0;
}
