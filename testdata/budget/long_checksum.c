/* Two workers each fold 25 million values into a checksum: 80 ms natively,
 * hundreds of millions of instructions interpreted. It ends, and with
 * default budgets augur lets it: the first schedule runs as long as it
 * takes, and no budget message appears. Its threads meet only where main
 * makes and joins them, and race nowhere, so that first schedule is the
 * only execution the program has: detection runs no other, and the
 * exploration of schedules after the plan does not start
 * (long_locked_checksum.c adds a lock, and has both).
 *
 * augur analyze --explore-time 0 => exit 0: SUMMARY: augur: 0 races, 0 failures; rss < 400MiB; time < 300s
 * augur analyze --detect-only --explore-time 10m => exit 0: SCHEDULES: one: on its inputs the threads met only where they were created and joined; rss < 400MiB; time < 300s
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
