/* main frees a work buffer once it has started the worker, assuming the
 * worker has copied what it needs; it may not have.
 *
 * work: spec-violated. The free before the worker's read is a use after
 * free. */
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>

static int copied;

static void *worker(void *arg) {
	int *w = arg;
	copied = w[0]; // race: work spec-violated
	return NULL;
}

int main(void) {
	int *work = malloc(4 * sizeof *work);
	work[0] = 11;
	pthread_t t;
	pthread_create(&t, NULL, worker, work);
	free(work); // race: work spec-violated
	pthread_join(t, NULL);
	printf("copied %d\n", copied);
	return 0;
}
