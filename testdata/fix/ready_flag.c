/* A worker fills in a job and then sets its ready flag; main spins on
 * the flag and reads the result. The flag is a plain member: the spin
 * orders the accesses only by luck of the memory model, and both races
 * are single-ordering. Making the flag atomic, set with a release store
 * and read with an acquire load, makes the spin a synchronization. */
#include <pthread.h>
#include <sched.h>
#include <stdio.h>
#include <stdlib.h>

struct job {
	long value;
	int ready; // fix: atomic verified
};

static void *work(void *arg) {
	struct job *j = arg;
	j->value = 6 * 7; // race: j->value single-ordering
	j->ready = 1;     // race: j->ready single-ordering
	return NULL;
}

int main(void) {
	struct job *j = calloc(1, sizeof *j);
	pthread_t t;
	pthread_create(&t, NULL, work, j);
	while (!j->ready) // race: j->ready single-ordering
		sched_yield();
	printf("value %ld\n", j->value); // race: j->value single-ordering
	pthread_join(t, NULL);
	free(j);
	return 0;
}
