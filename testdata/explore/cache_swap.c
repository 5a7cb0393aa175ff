/* A reader takes the cached entry and uses it without a reference while
 * a refresher swaps in a new entry and frees the old one: the reader's
 * use comes after the free only if it is preempted between the two.
 *
 * expect: crash (the line marked `bug:`)
 */
#include <pthread.h>
#include <stdlib.h>

struct entry {
	int key, value;
};

static struct entry *cached;
static int total;

static void *reader(void *arg) {
	(void)arg;
	struct entry *e = cached;
	total += e->value; // bug: crash
	return 0;
}

static void *refresher(void *arg) {
	(void)arg;
	struct entry *fresh = malloc(sizeof *fresh);
	fresh->key = 1;
	fresh->value = 2;
	struct entry *old = cached;
	cached = fresh;
	free(old);
	return 0;
}

int main(void) {
	cached = malloc(sizeof *cached);
	cached->key = 1;
	cached->value = 1;
	pthread_t r, f;
	pthread_create(&r, 0, reader, 0);
	pthread_create(&f, 0, refresher, 0);
	pthread_join(r, 0);
	pthread_join(f, 0);
	free(cached);
	return 0;
}
