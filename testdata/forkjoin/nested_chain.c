/* main makes a coordinator, which makes two helpers for the halves of a
 * table main filled and joins them; main joins the coordinator. Thread
 * creation nests, but each creation follows the one before it (the
 * coordinator's come after main made it), so the threads get the same
 * ids in every schedule: the only execution there is.
 *
 * expect: only
 */
#include <pthread.h>
#include <stdio.h>

#define N 2000

static double table[N];

struct half {
	int from, to;
	double sum;
};

static void *add(void *arg) {
	struct half *h = arg;
	for (int i = h->from; i < h->to; i++)
		h->sum += table[i] * 0.5;
	return NULL;
}

static void *coordinate(void *arg) {
	double *out = arg;
	struct half halves[2] = {{0, N / 2, 0}, {N / 2, N, 0}};
	pthread_t t[2];
	for (int k = 0; k < 2; k++)
		pthread_create(&t[k], NULL, add, &halves[k]);
	for (int k = 0; k < 2; k++)
		pthread_join(t[k], NULL);
	*out = halves[0].sum + halves[1].sum;
	return NULL;
}

int main(void) {
	for (int i = 0; i < N; i++)
		table[i] = i;
	double total = 0;
	pthread_t c;
	pthread_create(&c, NULL, coordinate, &total);
	pthread_join(c, NULL);
	printf("%.1f\n", total);
	return 0;
}
