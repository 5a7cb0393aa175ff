/* Starts a hundred thousand threads that sleep for ever. Every scheduling
 * decision looks at every thread, which the instruction count does not
 * see: while the budget was checked only every so many instructions, a
 * run under --timeout 5s took 18 s. The threads a decision looks at count
 * as work now, and the time budget holds (the bound below leaves room for
 * a loaded machine).
 *
 * augur run --timeout 2s => exit 124: time budget of 2s exhausted; rss < 600MiB; time < 8s
 */
#include <pthread.h>
#include <unistd.h>

static void *sleeper(void *arg) {
	(void)arg;
	sleep(1000);
	return 0;
}

int main(void) {
	for (int i = 0; i < 100000; i++) {
		pthread_t t;
		pthread_create(&t, 0, sleeper, 0); /* budget: time */
	}
	sleep(1000);
	return 0;
}
