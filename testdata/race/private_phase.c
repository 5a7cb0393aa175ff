/* Heap objects one thread allocates and uses alone before another thread
 * touches them. The detector keeps no per-byte history of such an object
 * while it has one thread; when the second thread's first access is not
 * ordered after all of the first one's, the execution runs again with the
 * object shadowed from birth. Here: a counter the main thread writes after
 * creating the worker that adds to it (a race only that second run can
 * name), a job handed over under a lock (ordered: no race), and the
 * worker's own scratch buffer (one thread: no race). */
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>

struct job {
	int in;
	int out;
};

static struct job *posted;
static pthread_mutex_t mu = PTHREAD_MUTEX_INITIALIZER;

static void *worker(void *arg) {
	int *total = arg;
	int *scratch = malloc(64 * sizeof *scratch);
	for (int i = 0; i < 64; i++)
		scratch[i] = i;
	int sum = 0;
	for (int i = 0; i < 64; i++)
		sum += scratch[i];
	free(scratch);
	*total += sum; // race: total output-differs
	pthread_mutex_lock(&mu);
	struct job *j = posted;
	pthread_mutex_unlock(&mu);
	if (j)
		j->out = j->in * 2;
	return NULL;
}

int main(void) {
	int *total = malloc(sizeof *total);
	*total = 1;
	pthread_t t;
	pthread_create(&t, NULL, worker, total);
	*total = 2; // race: total output-differs
	struct job *j = malloc(sizeof *j);
	j->in = 21;
	j->out = 0;
	pthread_mutex_lock(&mu);
	posted = j;
	pthread_mutex_unlock(&mu);
	pthread_join(t, NULL);
	printf("%d %d\n", *total, j->out);
	free(j);
	free(total);
	return 0;
}
