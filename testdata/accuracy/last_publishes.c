/* Two workers each store their part of a result, then count themselves
 * done with a plain increment; the worker that sees the count reach two
 * adds both parts and publishes the sum. main checks it was published.
 *
 * count: spec-violated. When both workers read the count before either
 * writes it, both see one, neither publishes, and main's check fails.
 * lost: spec-violated. The two writes of the count race too: the same
 * lost update.
 * part, other: single-ordering. The publisher reads the other worker's
 * part (one race for each worker's part, as either may publish), and
 * it gets there only after that worker counted itself done, which it does
 * after storing its part: the read cannot come first. Runs of that one
 * order can still fail main's check, but only by the lost update on the
 * count, with no worker publishing: the read of the part never happens in
 * them, so the failure is not this race's consequence. */
#include <assert.h>
#include <pthread.h>
#include <stdio.h>

static int part[2];
static int finished;
static int total, published;

static void *worker(void *arg) {
	long id = (long)arg;
	part[id] = (int)(id + 1) * 10; // race: part single-ordering // race: other single-ordering
	int n = finished + 1; // race: count spec-violated
	finished = n; // race: count spec-violated // race: lost spec-violated
	if (n == 2) {
		total = part[0] + part[1]; // race: part single-ordering // race: other single-ordering
		published = 1;
	}
	return NULL;
}

int main(void) {
	pthread_t t[2];
	for (long i = 0; i < 2; i++)
		pthread_create(&t[i], NULL, worker, (void *)i);
	for (int i = 0; i < 2; i++)
		pthread_join(t[i], NULL);
	assert(published == 1);
	printf("total %d\n", total);
	return 0;
}
