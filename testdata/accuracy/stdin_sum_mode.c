// stdin: count\n
/* A tool reads its report kind from standard input. For "sum" it prints
 * the running sum, which an accumulator thread adds to without the lock;
 * for "count" (the seed) it prints the number of samples, which is fixed.
 *
 * sum: output-differs. With a line starting with s, main prints the sum
 * before or after the accumulator's addition (10 or 30). The race exists
 * only on that input. */
#include <pthread.h>
#include <stdio.h>

static int sum = 10;
static const int samples = 3;

static void *accumulate(void *arg) {
	(void)arg;
	sum = sum + 20; // race: sum output-differs
	return NULL;
}

int main(void) {
	char kind[16] = {0};
	if (fgets(kind, sizeof kind, stdin) == NULL)
		kind[0] = 0;
	pthread_t t;
	pthread_create(&t, NULL, accumulate, NULL);
	if (kind[0] == 's')
		printf("sum %d\n", sum); // race: sum output-differs
	else
		printf("count %d\n", samples);
	pthread_join(t, NULL);
	return 0;
}
