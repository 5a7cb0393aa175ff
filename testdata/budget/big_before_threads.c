/* Main reads a mode from standard input, which makes the exploration of
 * symbolic inputs run beside detection, fills 96 MiB, then two threads
 * race on a counter. Under a 160 MiB budget the exploration's first path
 * (the given input's) and detection's first schedule start together and
 * share the budget half and half until that path has measured the
 * program (vm.Room): detection's schedule, past its half, is thrown away
 * and runs again once the exploration is over, since two executions of
 * 96 MiB do not fit side by side. Started together without sharing, the
 * two peaked at 320 MB of RSS; sharing, at 220 MB.
 *
 * augur analyze --detect-only --explore-time 0 --max-memory 160MiB => exit 0: data race on counter; rss < 288MiB; time < 120s
 */
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#define SIZE (96 << 20)

static int counter;

static void *work(void *arg) {
	(void)arg;
	counter++;
	return 0;
}

int main(void) {
	int mode = getchar();
	char *big = malloc(SIZE);
	if (!big)
		return 2;
	memset(big, mode == 'z' ? 0 : 1, SIZE);
	pthread_t t[2];
	for (int i = 0; i < 2; i++)
		pthread_create(&t[i], 0, work, 0);
	for (int i = 0; i < 2; i++)
		pthread_join(t[i], 0);
	printf("%d %d\n", counter, big[SIZE / 2]);
	free(big);
	return 0;
}
