// args: 0 0
/* Eight slots, each a lock and a value. The worker locks the slot its
 * argument names and, by an off-by-one, stores into the next slot's value;
 * main locks and stores into the slot its own argument names. Each thread
 * holds a lock at its store, but not the same one when main's slot is
 * the one after the worker's: with the seed arguments (0 and 0) the
 * worker writes slot 1 and main slot 0, and nothing races. The two inputs
 * have to be related (main's = worker's + 1), so a search that picks
 * other slots at random rarely meets the race.
 *
 * value: output-differs. main prints its slot after the worker ended:
 * 5 when the worker stored first, 7 when main did; only for arguments
 * whose slots are neighbours. */
#include <pthread.h>
#include <stdio.h>

struct slot {
	pthread_mutex_t lock;
	int value;
};

static struct slot slots[8];

static int index_of(const char *s) {
	int i = s[0] - '0';
	return i < 0 || i > 6 ? 0 : i;
}

static void *worker(void *arg) {
	int w = index_of(arg);
	pthread_mutex_lock(&slots[w].lock);
	slots[w + 1].value = 7; // race: value output-differs
	pthread_mutex_unlock(&slots[w].lock);
	return NULL;
}

int main(int argc, char **argv) {
	for (int k = 0; k < 8; k++)
		pthread_mutex_init(&slots[k].lock, NULL);
	int m = argc > 1 ? index_of(argv[1]) : 0;
	pthread_t t;
	pthread_create(&t, NULL, worker, argc > 2 ? argv[2] : "0");
	pthread_mutex_lock(&slots[m].lock);
	slots[m].value = 5; // race: value output-differs
	pthread_mutex_unlock(&slots[m].lock);
	pthread_join(t, NULL);
	printf("slot %d holds %d\n", m, slots[m].value);
	return 0;
}
