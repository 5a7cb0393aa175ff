/* Two workers each fold 25 million values into a checksum: 80 ms natively,
 * hundreds of millions of instructions interpreted. It ends, and with
 * default budgets augur lets it: the first schedule runs as long as it
 * takes, the later ones get ten times that, and no budget message
 * appears. The program is long (race.LongRun), so the exploration of
 * schedules after the plan is bounded by one run's worth of instructions,
 * as the plans on explored inputs and the race-directed runs are: it ends
 * after one schedule whatever the machine's speed (its time is set far
 * off in the second case so that only the instructions can end it).
 *
 * augur analyze --explore-time 0 => exit 0: SUMMARY: augur: 0 races, 0 failures; rss < 400MiB; time < 300s
 * augur analyze --detect-only --explore-time 10m => exit 0: its schedules ran the 350000240 instructions it had; rss < 400MiB; time < 300s
 */
#include <pthread.h>
#include <stdio.h>

static unsigned long sums[2];

static void *worker(void *arg) {
	long k = (long)arg;
	unsigned long s = 0;
	for (unsigned long i = 0; i < 25000000; i++)
		s = s * 31 + i + (unsigned long)k;
	sums[k] = s;
	return NULL;
}

int main(void) {
	pthread_t t[2];
	for (long k = 0; k < 2; k++)
		pthread_create(&t[k], NULL, worker, (void *)k);
	for (int k = 0; k < 2; k++)
		pthread_join(t[k], NULL);
	printf("checksum %lx\n", sums[0] ^ sums[1]);
	return 0;
}
