/* Hidden behind a standard input the program is not given. main reads a
 * quota with scanf; a quota over 50 is added to the total without the
 * lock the worker takes, anything else (no number at all, as when the
 * program is run with nothing on its standard input) under it. Run as the
 * editor and a bare `augur analyze` run it, with no input, scanf finds the
 * end of input: the exploration then gives the program a few symbolic
 * bytes of standard input, finds a quota over 50, and detection runs
 * there. Both updates read the total and write it back, so either can
 * be lost: the printed total differs with the order. */
#include <pthread.h>
#include <stdio.h>

static pthread_mutex_t m = PTHREAD_MUTEX_INITIALIZER;
static long total;

static void *worker(void *arg) {
	(void)arg;
	pthread_mutex_lock(&m);
	total += 1; // race: total output-differs
	pthread_mutex_unlock(&m);
	return NULL;
}

int main(void) {
	pthread_t t;
	int quota = 0;
	pthread_create(&t, NULL, worker, NULL);
	if (scanf("%d", &quota) == 1 && quota > 50) {
		total += quota; // race: total output-differs
	} else {
		pthread_mutex_lock(&m);
		total += 1;
		pthread_mutex_unlock(&m);
	}
	pthread_join(t, NULL);
	printf("total %ld\n", total);
	return 0;
}
