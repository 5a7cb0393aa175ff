/* Workers race on a flag they all set to the same value (harmless), and
 * each measures how long its work took; main prints the durations. The
 * two orders of the race run different numbers of instructions before a
 * worker's second reading of the clock, but the time read is an input of
 * the program, not a consequence of the race.
 *
 * expect: no harm
 */
#include <pthread.h>
#include <stdio.h>
#include <time.h>

static int touched;
static long sums[2], took[2];

static long micros(void) {
	struct timespec t;
	clock_gettime(CLOCK_MONOTONIC, &t);
	return t.tv_sec * 1000000 + t.tv_nsec / 1000;
}

static void *work(void *arg) {
	long id = (long)arg, s = 0, t0 = micros();
	for (long i = 0; i < 1000 * (id + 1); i++)
		s += i;
	sums[id] = s;
	touched = 1;
	took[id] = micros() - t0;
	return 0;
}

int main(void) {
	long t0 = micros();
	pthread_t a, b;
	pthread_create(&a, 0, work, (void *)0);
	pthread_create(&b, 0, work, (void *)1);
	pthread_join(a, 0);
	pthread_join(b, 0);
	printf("sums %ld %ld touched %d: %ld and %ld us of %ld\n", sums[0], sums[1], touched, took[0], took[1], micros() - t0);
	return 0;
}
