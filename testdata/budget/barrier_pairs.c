/* Pairs ordered by a barrier, as SPLASH-2's phases are. Each worker
 * writes twelve variables in turn, meets the other at a barrier made of a
 * mutex and a condition variable, and reads them: every pair of a write
 * and the other's read is ordered, but by no lock both hold at the
 * accesses, so each is a potential race the race-directed runs try (and
 * fail) to bring together. An argument starting with 'h' prints a usage
 * line and creates no thread.
 *
 * Explored inputs on which the program keeps one thread (or outruns its
 * budget) show no potential race: analyzer/detect/race's
 * TestDirectedRunsFollowTheInputsThatRan checks that they add no
 * race-directed runs to the own input's (Directed for each input whose
 * plan ran in full).
 *
 * augur analyze --sym-inputs none => exit 0: augur: 0 races; rss < 400MiB; time < 120s
 */
#include <pthread.h>
#include <stdio.h>

static pthread_mutex_t m = PTHREAD_MUTEX_INITIALIZER;
static pthread_cond_t cv = PTHREAD_COND_INITIALIZER;
static int arrived, cycle;
static long v0, v1, v2, v3, v4, v5, v6, v7, v8, v9, v10, v11;
static long sums[2];

static void barrier(void) {
	pthread_mutex_lock(&m);
	int c = cycle;
	if (++arrived == 2) {
		arrived = 0;
		cycle = !cycle;
		pthread_cond_broadcast(&cv);
	} else {
		while (c == cycle)
			pthread_cond_wait(&cv, &m);
	}
	pthread_mutex_unlock(&m);
}

static void *worker(void *arg) {
	long me = (long)arg;
	for (int round = 0; round < 2; round++) {
		barrier();
		if (me == round) {
		v0 = me + 0;
		v1 = me + 1;
		v2 = me + 2;
		v3 = me + 3;
		v4 = me + 4;
		v5 = me + 5;
		v6 = me + 6;
		v7 = me + 7;
		v8 = me + 8;
		v9 = me + 9;
		v10 = me + 10;
		v11 = me + 11;
		}
		barrier();
		if (me != round)
			sums[me] += v0 + v1 + v2 + v3 + v4 + v5 + v6 + v7 + v8 + v9 + v10 + v11;
	}
	return NULL;
}

int main(int argc, char **argv) {
	if (argc > 1 && argv[1][0] == 'h') {
		printf("usage: %s\n", argv[0]);
		return 0;
	}
	pthread_t t[2];
	for (long i = 0; i < 2; i++)
		pthread_create(&t[i], NULL, worker, (void *)i);
	for (int i = 0; i < 2; i++)
		pthread_join(t[i], NULL);
	printf("%ld %ld\n", sums[0], sums[1]);
	return 0;
}
