/* main prints the worker's result before it joins the worker: the print
 * races with the computation. Joining first fixes it; making result
 * atomic removes the data race but main still prints 0 or 42 depending
 * on the schedule, so that fix is rejected. */
#include <pthread.h>
#include <stdio.h>

static long result; // fix: atomic rejected

static void *compute(void *arg) {
	result = 6 * 7; // race: result
	return NULL;
}

int main(void) {
	pthread_t t;
	pthread_create(&t, NULL, compute, NULL);
	printf("result %ld\n", result); // race: result // fix: join verified
	pthread_join(t, NULL);
	return 0;
}
