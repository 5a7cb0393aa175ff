/* Two workers add their halves to one atomic total as they go: no data
 * race, but the atomic additions are ordered by the schedule, which the
 * rule for the only execution does not follow. Every schedule is worth
 * running.
 *
 * expect: not only
 */
#include <pthread.h>
#include <stdatomic.h>
#include <stdio.h>

#define N 512

static int table[N];
static atomic_long total;

static void *sum(void *arg) {
	long k = (long)arg;
	for (int i = k * N / 2; i < (k + 1) * N / 2; i++)
		atomic_fetch_add(&total, table[i]);
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
	printf("%ld\n", atomic_load(&total));
	return 0;
}
