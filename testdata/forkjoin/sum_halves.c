/* Two workers sum the halves of a table main filled before it made them,
 * each into a slot of its own; main adds the slots after joining both.
 * The threads meet only where main makes and joins them and race
 * nowhere: the first schedule is the only execution there is.
 *
 * expect: only
 */
#include <pthread.h>
#include <stdio.h>

#define N 4096

static int table[N];
static long part[2];

static void *sum(void *arg) {
	long k = (long)arg;
	long s = 0;
	for (int i = k * N / 2; i < (k + 1) * N / 2; i++)
		s += table[i];
	part[k] = s;
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
	printf("%ld\n", part[0] + part[1]);
	return 0;
}
