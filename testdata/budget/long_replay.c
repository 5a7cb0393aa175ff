/* Four threads add 200,000 numbers under a mutex, then each counts
 * itself done without it: a race whose orders print different counts,
 * found after about 850,000 scheduling decisions. The replay of its
 * evidence lists the decisions: a row each made a transcript of 100 MB
 * (2 GB and 4.6 GB of RSS at 4,000,000 numbers); the rounds of the lock
 * fold into one row (TestReplayOfALongScheduleFolds).
 *
 * augur analyze --explore-time 0 => exit 0: changes what the program prints; rss < 400MiB; time < 120s
 */
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>

#define T 4

static pthread_mutex_t mu = PTHREAD_MUTEX_INITIALIZER;
static long total, n, done;

static void *worker(void *arg) {
	long id = (long)arg;
	for (long i = id; i < n; i += T) {
		pthread_mutex_lock(&mu);
		total += i;
		pthread_mutex_unlock(&mu);
	}
	done++;
	return NULL;
}

int main(int argc, char **argv) {
	n = argc > 1 ? atol(argv[1]) : 200000;
	pthread_t t[T];
	for (long i = 0; i < T; i++)
		pthread_create(&t[i], NULL, worker, (void *)i);
	for (int i = 0; i < T; i++)
		pthread_join(t[i], NULL);
	printf("%ld %ld\n", total, done);
	return 0;
}
