/* A program whose argument sizes its work: ten times more rounds for
 * each step of its first digit. Run without arguments it does 10 rounds,
 * and augur, exploring a short argument by default, finds the digits
 * too; on "9" the worker would run 10^10 rounds. Executions on such an
 * input run out of their instruction budget: that is a limit of the
 * input exploration, said in its EXPLORATION line, not a gap in the
 * analysis of the program as it was run (exit 0, no INCOMPLETE), and no
 * race-directed execution is spent on it. Its exploration finds four
 * digits that outrun the budget: detection runs the first two and leaves
 * the others out, as its EXPLORATION line says too.
 *
 * augur analyze --explore-time 0 => exit 0: 2 more such inputs not run under the detector; rss < 400MiB; time < 300s
 */
#include <pthread.h>
#include <stdio.h>

static long rounds = 10;
static long done; /* written by the worker, read by main before the join */

static void *worker(void *arg) {
	long s = 0;
	for (long i = 0; i < rounds; i++)
		s += i;
	done = s;
	return 0;
}

int main(int argc, char **argv) {
	if (argc > 1 && argv[1][0] >= '0' && argv[1][0] <= '9')
		for (int d = argv[1][0] - '0', i = 0; i < d; i++)
			rounds *= 10;
	pthread_t t;
	pthread_create(&t, 0, worker, 0);
	long seen = done; /* races with the worker's write; prints the same either way */
	pthread_join(t, 0);
	printf("%d\n", seen >= 0);
	return 0;
}
