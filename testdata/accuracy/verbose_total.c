// args: -q
/* A logger prints a running total that a worker updates without the lock,
 * but only in verbose mode. With the seed argument -q nothing racy is read.
 *
 * total: output-differs. With -v main prints the total either before the
 * worker's addition (0) or after it (5). The race exists only on that
 * input: an analysis that does not explore the argument never sees it. */
#include <pthread.h>
#include <stdio.h>
#include <string.h>

static int total;

static void *worker(void *arg) {
	(void)arg;
	total += 5; // race: total output-differs
	return NULL;
}

int main(int argc, char **argv) {
	int verbose = argc > 1 && strcmp(argv[1], "-v") == 0;
	pthread_t t;
	pthread_create(&t, NULL, worker, NULL);
	if (verbose)
		printf("total so far: %d\n", total); // race: total output-differs
	pthread_join(t, NULL);
	printf("done\n");
	return 0;
}
