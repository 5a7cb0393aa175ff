/* Two workers each fold 25 million values into a checksum, then add it
 * to a total under a mutex: long_checksum.c with one lock per worker. The
 * lock makes the order of the two additions a schedule's choice, so
 * detection does not stop after its first execution (as it does for
 * long_checksum.c, whose threads meet only where they are made and
 * joined): the exploration of schedules after the plan runs, and as the
 * program is long (race.LongRun) it is bounded by one run's worth of
 * instructions, as the plans on explored inputs and the race-directed
 * runs are. It ends after one schedule whatever the machine's speed (its
 * time is set far off so that only the instructions can end it).
 *
 * augur analyze --detect-only --explore-time 10m => exit 0: its schedules ran the 350000322 instructions it had; rss < 400MiB; time < 300s
 */
#include <pthread.h>
#include <stdio.h>

static pthread_mutex_t lock = PTHREAD_MUTEX_INITIALIZER;
static unsigned long total;

static void *worker(void *arg) {
	long k = (long)arg;
	unsigned long s = 0;
	for (unsigned long i = 0; i < 25000000; i++)
		s = s * 31 + i + (unsigned long)k;
	pthread_mutex_lock(&lock);
	total ^= s;
	pthread_mutex_unlock(&lock);
	return NULL;
}

int main(void) {
	pthread_t t[2];
	for (long k = 0; k < 2; k++)
		pthread_create(&t[k], NULL, worker, (void *)k);
	for (int k = 0; k < 2; k++)
		pthread_join(t[k], NULL);
	printf("checksum %lx\n", total);
	return 0;
}
