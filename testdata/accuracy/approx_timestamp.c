/* A cache keeps the time an entry was last touched, which a worker
 * updates without the lock; main reads it to decide whether the entry is
 * stale and must be recomputed. Approximate computation (seed paper 001):
 * the timestamp decides only whether a value is computed again, and the
 * value is the same.
 *
 * touched: k-witness-harmless. main prints 42 whether it recomputes or
 * not. */
#include <pthread.h>
#include <stdio.h>

static int touched;
static int cached = 42;

static int compute(void) { return 6 * 7; }

static void *worker(void *arg) {
	(void)arg;
	touched = 5; // race: touched k-witness-harmless
	return NULL;
}

int main(void) {
	pthread_t t;
	pthread_create(&t, NULL, worker, NULL);
	if (touched < 3) // race: touched k-witness-harmless
		cached = compute();
	pthread_join(t, NULL);
	printf("value %d\n", cached);
	return 0;
}
