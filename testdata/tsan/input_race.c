/* The race happens only on one input: with "-v" the worker bumps a
 * verbose counter that main reads unlocked. ThreadSanitizer saw it in a
 * CI run with -v; augur, analyzing without arguments, reaches it by
 * exploring its symbolic argument (TestTSanRaceOnExploredInput). */
#include <pthread.h>
#include <stdio.h>
#include <string.h>

static int verbose, logged;

static void *worker(void *arg) {
	(void)arg;
	if (verbose)
		logged++;
	return NULL;
}

int main(int argc, char **argv) {
	verbose = argc > 1 && strcmp(argv[1], "-v") == 0;
	pthread_t t;
	pthread_create(&t, NULL, worker, NULL);
	int seen = logged;
	pthread_join(t, NULL);
	printf("%d\n", seen);
	return 0;
}
