/* Two withdrawals race on a balance, then each adds 100,000 numbers under
 * a mutex: every post-race schedule of classification runs a million
 * decisions past the race. The random ones never repeat, so their traces
 * kept a million events each (56 MB an execution, 1.9 GB of RSS in all),
 * and at 300,000 additions a harmful execution's replay ran off the end of
 * its stored trace: the race was called harmless with both outputs in
 * view. A replay now makes the seeded schedule again where the execution
 * switched to it, and the trace stops there.
 *
 * augur analyze --explore-time 0 --sym-inputs none => exit 0: (output-differs); rss < 400MiB; time < 120s
 */
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>

static int balance = 100;
static pthread_mutex_t mu = PTHREAD_MUTEX_INITIALIZER;
static long total, n;

static void *withdraw(void *arg) {
	(void)arg;
	if (balance >= 60)
		balance -= 60;
	for (long i = 0; i < n; i++) {
		pthread_mutex_lock(&mu);
		total += i;
		pthread_mutex_unlock(&mu);
	}
	return NULL;
}

int main(int argc, char **argv) {
	n = argc > 1 ? atol(argv[1]) : 100000;
	pthread_t a, b;
	pthread_create(&a, NULL, withdraw, NULL);
	pthread_create(&b, NULL, withdraw, NULL);
	pthread_join(a, NULL);
	pthread_join(b, NULL);
	printf("balance %d total %ld\n", balance, total);
	return 0;
}
