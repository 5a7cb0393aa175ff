/* A reader copies the cache pointer and, when it is set, prints the
 * entry's length; a dropper takes the cache's entry away and frees it.
 * Neither takes a lock. No input is involved.
 *
 * cache: spec-violated. Whichever order the two accesses to `cache` run
 * in, the thread that runs on from the race finishes cleanly: the reader
 * first prints the length before the dropper frees, the dropper first
 * leaves the reader a NULL to skip. The crash needs a second switch,
 * after the reader's copy and before its use: the dropper frees the
 * entry between them and the reader reads freed memory: a schedule
 * with that switch after the race (detection's, or the harm search's)
 * shows it, a single run on from the race in either order does not.
 * len: spec-violated. The free before the reader's read of the length
 * is that use after free, in the race's other order itself. */
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>

struct entry {
	int len;
	char name[12];
};

static struct entry *cache;

static void *reader(void *arg) {
	(void)arg;
	struct entry *c = cache; // race: cache spec-violated
	if (c)
		printf("cached %d\n", c->len); // race: len spec-violated
	return NULL;
}

static void *dropper(void *arg) {
	(void)arg;
	struct entry *old = cache;
	cache = NULL; // race: cache spec-violated
	free(old); // race: len spec-violated
	return NULL;
}

int main(void) {
	cache = malloc(sizeof *cache);
	cache->len = 7;
	pthread_t r, d;
	pthread_create(&r, NULL, reader, NULL);
	pthread_create(&d, NULL, dropper, NULL);
	pthread_join(r, NULL);
	pthread_join(d, NULL);
	return 0;
}
