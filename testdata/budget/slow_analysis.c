/* A race in a program that computes for a long time after it: the time
 * budget stops the analysis, which keeps the race it found (unclassified)
 * and says it is incomplete (exit status 4).
 *
 * augur analyze --timeout 3s --max-instructions 0 => exit 4: INCOMPLETE: augur: the analysis stopped early: time budget of 3s exhausted
 * augur analyze --timeout 3s --max-instructions 0 --format json => exit 4: "stopped": {
 */
#include <pthread.h>
#include <sched.h>
#include <stdio.h>

static long hits;

static void *worker(void *arg) {
	unsigned long s = (unsigned long)arg;
	hits++; /* the race: both workers, early */
	for (unsigned long i = 0; i < 4000000000UL; i++) {
		s = s * 6364136223846793005UL + i;
		if ((i & 0xfffff) == 0)
			sched_yield(); /* let the other thread run: its access comes early */
	}
	return (void *)s;
}

int main(void) {
	pthread_t a, b;
	pthread_create(&a, NULL, worker, (void *)1);
	pthread_create(&b, NULL, worker, (void *)2);
	pthread_join(a, NULL);
	pthread_join(b, NULL);
	printf("%ld\n", hits);
	return 0;
}
