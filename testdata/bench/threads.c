/* Threaded benchmark: four workers fill and sort their own heap arrays and
 * fold results into shared totals under a mutex. Correctly synchronized;
 * measures what race detection costs per executed instruction. */
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>

#define WORKERS 4
#define N 3000

static pthread_mutex_t mu = PTHREAD_MUTEX_INITIALIZER;
static long total;

static void *worker(void *arg) {
	long id = (long)arg;
	int *a = malloc(N * sizeof *a);
	unsigned s = (unsigned)id * 2654435761u + 1;
	for (int i = 0; i < N; i++) {
		s = s * 1103515245u + 12345u;
		a[i] = (int)(s >> 8) % 10000;
	}
	for (int i = 1; i < N; i++) { /* insertion sort: memory-heavy */
		int v = a[i], j = i - 1;
		while (j >= 0 && a[j] > v) {
			a[j + 1] = a[j];
			j--;
		}
		a[j + 1] = v;
		if (i % 500 == 0) {
			pthread_mutex_lock(&mu);
			total += a[i / 2];
			pthread_mutex_unlock(&mu);
		}
	}
	free(a);
	return NULL;
}

int main(void) {
	pthread_t t[WORKERS];
	for (long i = 0; i < WORKERS; i++)
		pthread_create(&t[i], NULL, worker, (void *)i);
	for (int i = 0; i < WORKERS; i++)
		pthread_join(t[i], NULL);
	printf("total %ld\n", total);
	return 0;
}
