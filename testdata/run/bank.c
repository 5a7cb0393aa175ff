/* A small bank: four tellers move money between accounts under one lock.
 * The total never changes, whatever the schedule. */
#include <pthread.h>
#include <stdio.h>

#define ACCOUNTS 8
#define TELLERS 4
#define MOVES 250

static long balance[ACCOUNTS];
static pthread_mutex_t lock = PTHREAD_MUTEX_INITIALIZER;
static long moves_done;

struct teller {
	int id;
	unsigned seed;
};

static unsigned next_rand(unsigned *s) {
	*s = *s * 1103515245u + 12345u;
	return (*s >> 16) & 0x7fff;
}

static void *teller_main(void *arg) {
	struct teller *t = arg;
	for (int i = 0; i < MOVES; i++) {
		int from = next_rand(&t->seed) % ACCOUNTS;
		int to = next_rand(&t->seed) % ACCOUNTS;
		long amount = next_rand(&t->seed) % 50;
		pthread_mutex_lock(&lock);
		if (balance[from] >= amount) {
			balance[from] -= amount;
			balance[to] += amount;
			moves_done++;
		}
		pthread_mutex_unlock(&lock);
	}
	return NULL;
}

int main(void) {
	pthread_t threads[TELLERS];
	struct teller tellers[TELLERS];
	for (int i = 0; i < ACCOUNTS; i++)
		balance[i] = 1000;
	for (int i = 0; i < TELLERS; i++) {
		tellers[i].id = i;
		tellers[i].seed = 17u * (unsigned)i + 1u;
		pthread_create(&threads[i], NULL, teller_main, &tellers[i]);
	}
	for (int i = 0; i < TELLERS; i++)
		pthread_join(threads[i], NULL);
	long total = 0;
	for (int i = 0; i < ACCOUNTS; i++)
		total += balance[i];
	printf("total %ld (expected %d) after %s\n", total, ACCOUNTS * 1000,
	       moves_done > 0 ? "some moves" : "no moves");
	return total == ACCOUNTS * 1000 ? 0 : 1;
}
