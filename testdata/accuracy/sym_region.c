/* A KLEE-style harness: the region a worker writes is a symbolic input.
 * main writes region 0; when the worker's region is 0 as well, the two
 * writes race, and main prints region 0.
 *
 * region: output-differs. For the input 0 the value printed is the last
 * writer's (1 or 2); for any other input there is no race. */
#include <augur.h>
#include <pthread.h>
#include <stdio.h>

static int regions[4];
static int which = 3;

static void *worker(void *arg) {
	(void)arg;
	regions[which] = 2; // race: region output-differs
	return NULL;
}

int main(void) {
	augur_make_symbolic(&which, sizeof which, "which");
	augur_assume(which >= 0 && which < 4);
	pthread_t t;
	pthread_create(&t, NULL, worker, NULL);
	regions[0] = 1; // race: region output-differs
	pthread_join(t, NULL);
	printf("region0 %d\n", regions[0]);
	return 0;
}
