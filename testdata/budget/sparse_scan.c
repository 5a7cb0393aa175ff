/* Three threads touch a 16 MiB table a byte per 4 KiB: main marks one
 * byte of each page, and two scanners read them back after. Detection
 * needs shadow for the bytes touched, not for the chunks that hold them:
 * a shadow cell per byte of each touched 4 KiB chunk came to 912 MiB and
 * this stopped at a 256 MiB budget. Cells finer than a line are made a
 * line at a time now, and the program's 16 MiB and its shadow fit well
 * within 96 MiB.
 *
 * augur analyze --max-memory 96MiB --detect-only --schedules 1 --explore-time 0 => exit 0: 0 races, 0 failures; rss < 300MiB
 */
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>

#define SIZE (16 << 20)
#define PAGE 4096

static unsigned char *table;

static void *scan(void *arg) {
	long sum = 0;
	for (int round = 0; round < 4; round++)
		for (long i = (long)arg; i < SIZE; i += PAGE)
			sum += table[i];
	return (void *)sum;
}

int main(void) {
	table = calloc(SIZE, 1);
	if (table == NULL)
		return 1;
	for (long i = 0; i < SIZE; i += PAGE)
		table[i + 7] = 1;
	pthread_t t[2];
	for (long k = 0; k < 2; k++)
		pthread_create(&t[k], NULL, scan, (void *)(k * 7));
	long total = 0;
	for (int k = 0; k < 2; k++) {
		void *r;
		pthread_join(t[k], &r);
		total += (long)r;
	}
	printf("%ld\n", total);
	return 0;
}
