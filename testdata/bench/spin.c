/* Two threads spin on volatile variables, 2,000,000 iterations each
 * (argv[1]): every access is a preemption point, so the schedule trace
 * records a decision per access (it folds them; it once kept them all). */
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>

static volatile long ticks[2];
static long rounds;

static void *spinner(void *arg) {
	long id = (long)arg;
	for (long i = 0; i < rounds; i++)
		ticks[id]++;
	return NULL;
}

int main(int argc, char **argv) {
	rounds = argc > 1 ? atol(argv[1]) : 2000000;
	pthread_t a, b;
	pthread_create(&a, NULL, spinner, (void *)0);
	pthread_create(&b, NULL, spinner, (void *)1);
	pthread_join(a, NULL);
	pthread_join(b, NULL);
	printf("%ld %ld\n", ticks[0], ticks[1]);
	return 0;
}
