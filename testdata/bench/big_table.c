/* A 16 MiB table filled by memset, bumped a byte at a time in a few
 * places by three threads, then read a byte per 4 KiB: memory-heavy,
 * access-light. The race detector's shadow should follow the bytes
 * touched, not the table's size. Its chunks of 4 KiB help the bumps, and
 * its lines of 64 bytes the strided scan, which refines one line of each
 * chunk rather than the chunk (see docs/budgets.md). */
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#define SIZE (16 << 20)

static unsigned char *table;
static pthread_mutex_t mu = PTHREAD_MUTEX_INITIALIZER;
static long bumps;

static void *bump(void *arg) {
	long id = (long)arg;
	for (long i = 0; i < 1000; i++) {
		table[(id * 7919 + i * 4099) % SIZE]++;
		pthread_mutex_lock(&mu);
		bumps++;
		pthread_mutex_unlock(&mu);
	}
	return NULL;
}

int main(void) {
	table = malloc(SIZE);
	memset(table, 1, SIZE);
	pthread_t t[3];
	for (long i = 0; i < 3; i++)
		pthread_create(&t[i], NULL, bump, (void *)i);
	for (int i = 0; i < 3; i++)
		pthread_join(t[i], NULL);
	long sum = 0;
	for (long i = 0; i < SIZE; i += 4096)
		sum += table[i];
	printf("%ld bumps, sum %ld\n", bumps, sum);
	free(table);
	return 0;
}
