/* Two threads each write a few bytes of a 64 MiB array after main fills
 * it, and race on a counter. The exploration resumes each schedule from
 * a snapshot taken after the fill; a schedule's first write to the array
 * copied all 64 MiB of it, so exploring its 3,007 schedules to the end
 * took 86 s and 1 GB of RSS. Big objects are copied by the page now
 * (analyzer/exec/vm/cow.go): 2.3 s and 267 MiB.
 *
 * augur analyze --detect-only --explore-time 120s => exit 0: 1 race, 0 failures; rss < 600MiB; time < 40s
 */
#include <pthread.h>
#include <stdio.h>
#include <string.h>

#define SIZE (64 << 20)

static char big[SIZE];
static int counter;

static void *work(void *arg) {
	for (int i = 0; i < 100; i++) {
		big[(long)arg * 4096 + i] = 1;
		counter++;
	}
	return NULL;
}

int main(void) {
	memset(big, 1, SIZE);
	pthread_t t[2];
	for (long k = 0; k < 2; k++)
		pthread_create(&t[k], NULL, work, (void *)k);
	for (int k = 0; k < 2; k++)
		pthread_join(t[k], NULL);
	printf("%d\n", counter);
	return 0;
}
