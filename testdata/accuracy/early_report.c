/* main reports "ready" as soon as it sees a worker's flag, or else only
 * after joining the worker; the worker sets the flag without
 * synchronization and then prints its own line.
 *
 * ready: output-differs. When main reads the flag set, its line can come
 * before the worker's; when it reads it clear, it waits for the join, so
 * the worker's line always comes first. The lines are the same; their
 * order is this race's consequence, since one order can print them in an
 * order the other never can. */
#include <pthread.h>
#include <stdio.h>

static int ready;

static void *worker(void *arg) {
	(void)arg;
	ready = 1; // race: ready output-differs
	printf("worker finished\n");
	return NULL;
}

int main(void) {
	pthread_t t;
	pthread_create(&t, NULL, worker, NULL);
	int seen = ready; // race: ready output-differs
	if (seen)
		printf("main: ready\n");
	pthread_join(t, NULL);
	if (!seen)
		printf("main: ready\n");
	return 0;
}
