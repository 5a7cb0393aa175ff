/* Phased computation with a barrier: each phase reads what every thread
 * wrote in the previous one. */
#include <pthread.h>
#include <stdio.h>

#define N 4
#define PHASES 5

static pthread_barrier_t bar;
static long cells[2][N];
static int serial_count;

static void *step(void *arg) {
	int id = *(int *)arg;
	for (int ph = 0; ph < PHASES; ph++) {
		long *cur = cells[ph % 2], *next = cells[(ph + 1) % 2];
		next[id] = cur[id] + cur[(id + 1) % N];
		if (pthread_barrier_wait(&bar) == PTHREAD_BARRIER_SERIAL_THREAD)
			serial_count++;
	}
	return NULL;
}

int main(void) {
	pthread_t t[N];
	int ids[N];
	for (int i = 0; i < N; i++)
		cells[0][i] = i + 1;
	pthread_barrier_init(&bar, NULL, N);
	for (int i = 0; i < N; i++) {
		ids[i] = i;
		pthread_create(&t[i], NULL, step, &ids[i]);
	}
	for (int i = 0; i < N; i++)
		pthread_join(t[i], NULL);
	pthread_barrier_destroy(&bar);
	for (int i = 0; i < N; i++)
		printf("%ld ", cells[PHASES % 2][i]);
	printf("serial %d\n", serial_count);
	return 0;
}
