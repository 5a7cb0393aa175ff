/* sum_halves.c, but each worker prints its half's sum: the two lines come
 * out in either order, and that order is all another schedule changes.
 * What goes to standard output, flushed or not, no thread can read back,
 * so every schedule makes the same reads, and one is run; the report says
 * the order of the output can differ.
 *
 * expect: only (output order)
 */
#include <pthread.h>
#include <stdio.h>

#define N 4096

static int table[N];

static void *sum(void *arg) {
	long k = (long)arg;
	long s = 0;
	for (int i = k * N / 2; i < (k + 1) * N / 2; i++)
		s += table[i];
	printf("half %ld: %ld\n", k, s);
	fflush(stdout);
	return NULL;
}

int main(void) {
	for (int i = 0; i < N; i++)
		table[i] = i % 7;
	pthread_t t[2];
	for (long k = 0; k < 2; k++)
		pthread_create(&t[k], NULL, sum, (void *)k);
	for (int k = 0; k < 2; k++)
		pthread_join(t[k], NULL);
	return 0;
}
