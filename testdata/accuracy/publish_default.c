/* A worker publishes a setting by raising a flag and then writing the
 * value, in that order and without a lock; main prints the value when the
 * flag is up and the default, 5, when it is not. The worker's value is
 * the default too, so a run without a switch between the worker's two
 * writes prints 5 whichever of the two threads goes first. No input is
 * involved.
 *
 * ready: output-differs. With main reading the flag first it prints the
 * default, 5, under every schedule after; with the worker's write first,
 * a switch right after it lets main see the flag up and the value not
 * yet written, and print 0. The difference needs that second switch
 * after the race: a single run on from the race in either order prints
 * 5.
 * value: output-differs. main reading the value before the worker
 * writes it prints 0, after it 5. */
#include <pthread.h>
#include <stdio.h>

static int ready;
static int value;

static void *worker(void *arg) {
	(void)arg;
	ready = 1; // race: ready output-differs
	value = 5; // race: value output-differs
	return NULL;
}

int main(void) {
	pthread_t t;
	pthread_create(&t, NULL, worker, NULL);
	int shown = 5;
	if (ready) // race: ready output-differs
		shown = value; // race: value output-differs
	printf("setting %d\n", shown);
	pthread_join(t, NULL);
	return 0;
}
