/* main fills a buffer of 200 MiB and two threads race on a counter whose
 * value is printed: an output-differs race in a program that holds most
 * of a 256 MiB budget. Classifying it replays the verdict's evidence from
 * the program's start; beside the pre-race checkpoint, that replay would
 * hold the buffer a second time (488 MiB of RSS), so it runs once the
 * checkpoint is let go (classify.tightMemory).
 *
 * augur analyze --explore-time 0 --max-memory 256MiB => exit 0: on counter changes what the program prints; rss < 384MiB; time < 60s
 */
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#define SIZE (200 << 20)

static int counter;
static char *buf;

static void *work(void *arg) {
	counter++;
	buf[(long)arg * 4096] = 1;
	return 0;
}

int main(void) {
	buf = malloc(SIZE);
	if (!buf)
		return 1;
	memset(buf, 7, SIZE);
	pthread_t t[2];
	for (long i = 0; i < 2; i++)
		pthread_create(&t[i], 0, work, (void *)i);
	for (int i = 0; i < 2; i++)
		pthread_join(t[i], 0);
	printf("%d\n", counter);
	return 0;
}
