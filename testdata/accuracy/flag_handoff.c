/* A producer hands a result to main through a plain flag that main spins
 * on: synchronization the programmer built (seed paper 001's user
 * constructed synchronization), invisible to a happens-before detector.
 *
 * ready: single-ordering. main leaves its loop only after the producer's
 * write; holding the producer back, main spins forever on the old value.
 * result: single-ordering. main reads the result only after the flag,
 * which the producer sets after the result. */
#include <pthread.h>
#include <stdio.h>

static volatile int ready;
static int result;

static void *producer(void *arg) {
	(void)arg;
	result = 99; // race: result single-ordering
	ready = 1; // race: ready single-ordering
	return NULL;
}

int main(void) {
	pthread_t t;
	pthread_create(&t, NULL, producer, NULL);
	while (!ready) // race: ready single-ordering
		;
	printf("result %d\n", result); // race: result single-ordering
	pthread_join(t, NULL);
	return 0;
}
