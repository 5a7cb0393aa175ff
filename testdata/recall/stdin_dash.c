/* Hidden behind a standard input named by an argument. The program reads
 * its limit from the file its argument names, or from standard input when
 * the argument is "-"; a limit over 50 makes main add it to the total
 * without the lock the worker takes. Run with a file that is not there, it
 * stops before any thread. The exploration of its argument finds "-", whose
 * path reads standard input to its end; the program is then explored with
 * that argument and a few symbolic bytes of standard input, finds a limit
 * over 50, and detection runs there. */
#include <pthread.h>
#include <stdio.h>
#include <string.h>

// args: limits.txt

static pthread_mutex_t m = PTHREAD_MUTEX_INITIALIZER;
static long total;

static void *worker(void *arg) {
	(void)arg;
	pthread_mutex_lock(&m);
	total += 1; // race: total output-differs
	pthread_mutex_unlock(&m);
	return NULL;
}

int main(int argc, char **argv) {
	if (argc < 2) {
		fprintf(stderr, "usage: %s FILE|-\n", argv[0]);
		return 2;
	}
	FILE *in = strcmp(argv[1], "-") == 0 ? stdin : fopen(argv[1], "r");
	if (in == NULL) {
		perror(argv[1]);
		return 1;
	}
	int limit = 0;
	if (fscanf(in, "%d", &limit) != 1)
		limit = 0;
	pthread_t t;
	pthread_create(&t, NULL, worker, NULL);
	if (limit > 50) {
		total += limit; // race: total output-differs
	} else {
		pthread_mutex_lock(&m);
		total += 1;
		pthread_mutex_unlock(&m);
	}
	pthread_join(t, NULL);
	printf("total %ld\n", total);
	return 0;
}
