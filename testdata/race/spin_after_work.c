/* A child that sums a shared table for a long while, then spins on a
 * plain flag that main sets after writing data. When classification holds
 * main before its write of data, the child first reads the table about
 * 200,000 times, then spins: the spin must still be seen as waiting for
 * main (the classifier watches a thread's reads in windows, not all of
 * them), so the other order of the race on data cannot happen. */
#include <pthread.h>
#include <stdio.h>

#define N 65536

static int table[N];
static int flag, data;

static void *child(void *arg) {
	(void)arg;
	long sum = 0;
	for (int pass = 0; pass < 3; pass++)
		for (int i = 0; i < N; i++)
			sum += table[i];
	while (!flag) // race: flag single-ordering // pattern: ad-hoc-synchronization
		;
	printf("%ld %d\n", sum, data); // race: data single-ordering // pattern: ad-hoc-synchronization
	return NULL;
}

int main(void) {
	for (int i = 0; i < N; i++)
		table[i] = i & 7;
	pthread_t t;
	pthread_create(&t, NULL, child, NULL);
	data = 42; // race: data single-ordering
	flag = 1;  // race: flag single-ordering
	pthread_join(t, NULL);
	return 0;
}
