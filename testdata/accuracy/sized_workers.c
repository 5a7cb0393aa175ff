// args: 0
/* main sizes a result table by its argument, starts that many workers,
 * each filling its own entry, and prints the first entry as soon as the
 * workers are started, before it joins them: a progress line that reads
 * an entry a worker may not have written yet. The seed argument 0 starts
 * no worker; the size of the allocation is the only place the count is
 * used before the loop, so an analysis that fixes the size to the seed's
 * fixes the count to 0 on every path and never sees a thread.
 *
 * first: output-differs. main prints 0 when it reads the entry before
 * worker 0 writes it, 1 after; only for a count of at least 1. */
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>

static int *results;

static void *worker(void *arg) {
	long k = (long)arg;
	results[k] = (int)k + 1; // race: first output-differs
	return NULL;
}

int main(int argc, char **argv) {
	int n = argc > 1 ? argv[1][0] - '0' : 0;
	if (n < 0 || n > 4)
		n = 0;
	pthread_t *tids = malloc(n * sizeof *tids);
	results = calloc(n + 1, sizeof *results);
	for (long k = 0; k < n; k++)
		pthread_create(&tids[k], NULL, worker, (void *)k);
	if (n > 0)
		printf("first result so far: %d\n", results[0]); // race: first output-differs
	for (int k = 0; k < n; k++)
		pthread_join(tids[k], NULL);
	printf("%d workers done\n", n);
	free(tids);
	free(results);
	return 0;
}
