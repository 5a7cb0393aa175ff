/* A loader fills a table and raises a ready flag; the reader waits for
 * the flag, sums the table, and then checks that the table is still in
 * the full layout it was written for. A tuner switches the layout to
 * compact with nothing ordering it against the reader.
 *
 * compact: spec-violated. When the tuner's write comes before the
 * reader's check, the check fails; the other order passes.
 * table, ready: single-ordering. The reader spins until the flag is up,
 * so it reads the flag and the table only after the loader wrote them:
 * the other order cannot be enforced. Runs of that one order can still
 * fail the reader's check, after both racing accesses, but only where
 * the tuner's write came first: that failure is the compact race's
 * consequence, and the report gives it to that race. */
#include <assert.h>
#include <pthread.h>
#include <stdio.h>

static int table[4];
static volatile int ready;
static int compact;

static void *loader(void *arg) {
	for (int i = 0; i < 4; i++)
		table[i] = i * i; // race: table single-ordering
	ready = 1; // race: ready single-ordering
	return NULL;
}

static void *tuner(void *arg) {
	compact = 1; // race: compact spec-violated
	return NULL;
}

static void *reader(void *arg) {
	while (!ready) // race: ready single-ordering
		;
	int sum = 0;
	for (int i = 0; i < 4; i++)
		sum += table[i]; // race: table single-ordering
	assert(!compact); // race: compact spec-violated
	printf("sum %d\n", sum);
	return NULL;
}

int main(void) {
	pthread_t t[3];
	pthread_create(&t[0], NULL, reader, NULL);
	pthread_create(&t[1], NULL, loader, NULL);
	pthread_create(&t[2], NULL, tuner, NULL);
	for (int i = 0; i < 3; i++)
		pthread_join(t[i], NULL);
	return 0;
}
