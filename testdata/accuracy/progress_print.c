/* main prints how far a worker has got, reading the stage the worker
 * advances without synchronization.
 *
 * stage: output-differs. main prints stage 1 or stage 2. */
#include <pthread.h>
#include <stdio.h>

static int stage = 1;

static void *worker(void *arg) {
	(void)arg;
	stage = 2; // race: stage output-differs
	return NULL;
}

int main(void) {
	pthread_t t;
	pthread_create(&t, NULL, worker, NULL);
	printf("at stage %d\n", stage); // race: stage output-differs
	pthread_join(t, NULL);
	return 0;
}
