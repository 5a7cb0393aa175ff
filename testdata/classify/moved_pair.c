/* Two races one execution finds together, both moved by the argument: the
 * worker counts to a bound its first digit sets before it writes the total
 * and the count, and main reads both before the join. Classification
 * explores the argument, and on each explored input finds the two races
 * again; the run that finds them there is made once for both (relocate's
 * shared runs). Either order prints the same line. */
#include <pthread.h>
#include <stdio.h>

static long rounds = 10;
static long total, count;

static void *worker(void *arg) {
	(void)arg;
	long s = 0;
	for (long i = 0; i < rounds; i++)
		s += i;
	total = s;      // race: total k-witness-harmless
	count = rounds; // race: count k-witness-harmless
	return 0;
}

int main(int argc, char **argv) {
	if (argc > 1 && argv[1][0] >= '0' && argv[1][0] <= '4')
		for (int d = argv[1][0] - '0', i = 0; i < d; i++)
			rounds *= 10;
	pthread_t t;
	pthread_create(&t, 0, worker, 0);
	long a = total; // race: total k-witness-harmless // pattern: all-values-valid
	long b = count; // race: count k-witness-harmless // pattern: all-values-valid
	pthread_join(t, 0);
	printf("%d\n", a >= 0 && b >= 0);
	return 0;
}
