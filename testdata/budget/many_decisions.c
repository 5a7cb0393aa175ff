/* Four threads take one lock 3,000 times each: thousands of scheduling
 * decisions per run, each a place the bounded enumeration could switch
 * threads. The enumeration cannot run them all; what it keeps pending
 * must stay small (it once held gigabytes of schedule prefixes).
 *
 * augur analyze --detect-only --explore-time 6s => exit 0: of the schedules with at most 2 preemptions (not all); rss < 400MiB
 */
#include <pthread.h>

static pthread_mutex_t m = PTHREAD_MUTEX_INITIALIZER;
static long n;

static void *work(void *arg) {
	for (int i = 0; i < 3000; i++) {
		pthread_mutex_lock(&m);
		n++;
		pthread_mutex_unlock(&m);
	}
	return arg;
}

int main(void) {
	pthread_t t[4];
	for (int i = 0; i < 4; i++)
		pthread_create(&t[i], 0, work, 0);
	for (int i = 0; i < 4; i++)
		pthread_join(t[i], 0);
	return n == 12000 ? 0 : 1;
}
