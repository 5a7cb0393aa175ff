/* A tuner changes the batch size hint from 4 to 8 while a worker sums an
 * array in batches of whatever size it reads. The pattern where both
 * values are valid (seed paper 001): the batch size changes how the work
 * is split, not its result.
 *
 * batch: k-witness-harmless. The worker prints the same sum, 120, with
 * batches of 4 or of 8. */
#include <pthread.h>
#include <stdio.h>

static int batch = 4;
static int data[16];

static void *tuner(void *arg) {
	(void)arg;
	batch = 8; // race: batch k-witness-harmless
	return NULL;
}

static void *worker(void *arg) {
	(void)arg;
	int b = batch; // race: batch k-witness-harmless
	int sum = 0;
	for (int i = 0; i < 16; i += b)
		for (int j = i; j < i + b && j < 16; j++)
			sum += data[j];
	printf("sum %d\n", sum);
	return NULL;
}

int main(void) {
	for (int i = 0; i < 16; i++)
		data[i] = i;
	pthread_t a, b;
	pthread_create(&a, NULL, worker, NULL);
	pthread_create(&b, NULL, tuner, NULL);
	pthread_join(a, NULL);
	pthread_join(b, NULL);
	return 0;
}
