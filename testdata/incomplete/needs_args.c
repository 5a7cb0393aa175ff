/* A program that needs two arguments and, without them, prints its usage
 * and exits 2 before it starts its threads. Analyzed with none (augur
 * explores one short argument by default) no execution makes a second
 * thread: the report must say the program exited early, not only that
 * it found nothing (stats.exploration.exit_status 2, exit_message the
 * usage line; the editor's "exited-early" information on line 1).
 * Given "a 3", its workers race on `total`. */
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>

static long total;

static void *add(void *arg) {
	total += (long)arg;
	return NULL;
}

int main(int argc, char **argv) {
	if (argc < 3) {
		fprintf(stderr, "usage: needs_args NAME COUNT\n");
		return 2;
	}
	long n = atol(argv[2]);
	pthread_t t[2];
	for (long i = 0; i < 2; i++)
		pthread_create(&t[i], NULL, add, (void *)n);
	for (int i = 0; i < 2; i++)
		pthread_join(t[i], NULL);
	printf("%s: %ld\n", argv[1], total);
	return 0;
}
