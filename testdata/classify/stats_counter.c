/* Workers count the requests they serve in a statistics counter that
 * nothing reads back: the program's output is the sum of its replies,
 * not the counter, so a lost update changes nothing it does. */
#include <pthread.h>
#include <stdio.h>

static long requests_served;

static long serve(long request) {
	requests_served++; // race: served k-witness-harmless // pattern: statistics-counter
	return request * 2;
}

static void *worker(void *arg) {
	long *sum = arg;
	for (long i = 1; i <= 3; i++)
		*sum += serve(i);
	return NULL;
}

int main(void) {
	pthread_t a, b;
	long sa = 0, sb = 0;
	pthread_create(&a, NULL, worker, &sa);
	pthread_create(&b, NULL, worker, &sb);
	pthread_join(a, NULL);
	pthread_join(b, NULL);
	printf("replies %ld\n", sa + sb);
	return 0;
}
