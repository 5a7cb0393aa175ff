/* Two threads take one of six locks, at one of six places chosen by a
 * pseudo-random sequence, five thousand times each, then add to two totals
 * without a lock. The schedule that reaches the races has thousands of
 * decisions that never repeat as a block (a trace cannot fold them), so it
 * is large: the farm's jobs share it instead of carrying a copy each. */
#include <pthread.h>
#include <stdio.h>

static pthread_mutex_t locks[6] = {
	PTHREAD_MUTEX_INITIALIZER, PTHREAD_MUTEX_INITIALIZER, PTHREAD_MUTEX_INITIALIZER,
	PTHREAD_MUTEX_INITIALIZER, PTHREAD_MUTEX_INITIALIZER, PTHREAD_MUTEX_INITIALIZER,
};
static long counts[6];
static long hits, misses;

static void *worker(void *arg) {
	unsigned x = (unsigned)(long)arg;
	long mine = 0;
	for (int i = 0; i < 5000; i++) {
		x = x * 1103515245u + 12345u;
		unsigned k = (x >> 16) % 6;
		switch (k) {
		case 0: pthread_mutex_lock(&locks[0]); counts[0]++; pthread_mutex_unlock(&locks[0]); break;
		case 1: pthread_mutex_lock(&locks[1]); counts[1]++; pthread_mutex_unlock(&locks[1]); break;
		case 2: pthread_mutex_lock(&locks[2]); counts[2]++; pthread_mutex_unlock(&locks[2]); break;
		case 3: pthread_mutex_lock(&locks[3]); counts[3]++; pthread_mutex_unlock(&locks[3]); break;
		case 4: pthread_mutex_lock(&locks[4]); counts[4]++; pthread_mutex_unlock(&locks[4]); break;
		default: pthread_mutex_lock(&locks[5]); counts[5]++; pthread_mutex_unlock(&locks[5]); break;
		}
		mine += k;
	}
	hits += mine;    // race: hits output-differs
	misses += 5000;  // race: misses output-differs
	return NULL;
}

int main(void) {
	pthread_t a, b;
	pthread_create(&a, NULL, worker, (void *)1L);
	pthread_create(&b, NULL, worker, (void *)7L);
	pthread_join(a, NULL);
	pthread_join(b, NULL);
	long total = 0;
	for (int k = 0; k < 6; k++)
		total += counts[k];
	printf("%ld %ld %ld\n", hits, misses, total);
	return 0;
}
