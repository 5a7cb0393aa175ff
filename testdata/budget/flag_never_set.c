/* main waits for a flag its worker never sets: the worker returns early
 * on an error path. Nothing writes memory any more and main's loop comes
 * back to the same state, so this is a hang however long augur would let
 * it run: reported as one soon (a watch opens every 32 Mi instructions),
 * with default budgets, not after the whole time budget.
 *
 * augur run => exit 124: flag_never_set.c:25:9 comes back to the same state while nothing writes memory; rss < 300MiB; time < 60s
 * augur analyze --explore-time 0 => exit 0: flag_never_set.c:25:9 comes back to the same state while nothing writes memory; rss < 400MiB; time < 120s
 */
#include <pthread.h>
#include <stdio.h>

static volatile int ready;

static void *worker(void *arg) {
	if (arg == NULL)
		return NULL; /* the error path: ready is never set */
	ready = 1;
	return NULL;
}

int main(void) {
	pthread_t t;
	pthread_create(&t, NULL, worker, NULL);
	while (!ready) {
	}
	pthread_join(t, NULL);
	printf("ready\n");
	return 0;
}
