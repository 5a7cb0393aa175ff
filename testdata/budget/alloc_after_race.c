/* Two threads race on a counter, then main allocates 80 MiB and fills it
 * with the counter's value: every execution of classification's post-race
 * pairs holds 80 MiB of its own. A judged pair keeps its outputs, not its
 * executions, and a pair runs ahead of its turn only where the budget has
 * room for it: kept and run ahead, the pairs' executions took 717 MiB of
 * RSS under the 256 MiB budget.
 *
 * augur analyze --explore-time 0 --max-memory 256MiB => exit 0: on counter changes what the program prints; rss < 384MiB; time < 60s
 */
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#define SIZE (80 << 20)

static int counter;

static void *work(void *arg) {
	(void)arg;
	counter++;
	return 0;
}

int main(void) {
	pthread_t t[2];
	for (int i = 0; i < 2; i++)
		pthread_create(&t[i], 0, work, 0);
	for (int i = 0; i < 2; i++)
		pthread_join(t[i], 0);
	char *big = malloc(SIZE);
	if (!big)
		return 1;
	memset(big, counter, SIZE);
	printf("%d %d\n", counter, big[SIZE / 2]);
	return 0;
}
