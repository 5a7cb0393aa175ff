/* A program that works before it starts its threads, as most do: it
 * builds a table of primes and a histogram of their gaps (about a
 * million interpreted instructions), then three threads move amounts
 * between accounts under a lock and bump an unlocked statistics counter.
 * Every schedule of an exploration shares that setup: the benchmark of
 * schedules per second (BenchmarkSnapshots) measures what branching
 * from a snapshot of it saves. The counter races (harmless to the
 * balances, which the lock keeps whole). */
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>

#define N 20000
#define ACCOUNTS 8

static char composite[N];
static int gaps[64];
static long balance[ACCOUNTS];
static long transfers; /* statistics, unlocked: races */
static pthread_mutex_t mu = PTHREAD_MUTEX_INITIALIZER;

static void setup(void) {
	for (int i = 2; i < N; i++)
		if (!composite[i])
			for (int j = 2 * i; j < N; j += i)
				composite[j] = 1;
	int last = 2;
	for (int i = 3; i < N; i++)
		if (!composite[i]) {
			gaps[(i - last) % 64]++;
			last = i;
		}
	for (int a = 0; a < ACCOUNTS; a++)
		balance[a] = 100 + gaps[2 * a % 64];
}

static void *mover(void *arg) {
	long id = (long)arg;
	for (int k = 0; k < 3; k++) {
		int from = (int)(id + k) % ACCOUNTS, to = (int)(id * 3 + k + 1) % ACCOUNTS;
		pthread_mutex_lock(&mu);
		balance[from] -= 5;
		balance[to] += 5;
		pthread_mutex_unlock(&mu);
		transfers++;
	}
	return NULL;
}

int main(void) {
	setup();
	long before = 0, after = 0;
	for (int a = 0; a < ACCOUNTS; a++)
		before += balance[a];
	pthread_t t[3];
	for (long i = 0; i < 3; i++)
		pthread_create(&t[i], NULL, mover, (void *)i);
	for (int i = 0; i < 3; i++)
		pthread_join(t[i], NULL);
	for (int a = 0; a < ACCOUNTS; a++)
		after += balance[a];
	printf("total %ld -> %ld\n", before, after);
	return before == after ? 0 : 1;
}
