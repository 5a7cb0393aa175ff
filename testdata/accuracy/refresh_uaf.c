// stdin: 0\n
/* A cache holds one entry; a refresher thread, when standard input asks
 * for a refresh (a line starting with 1), installs a new entry and frees
 * the old one without waiting for readers. The reader follows the entry
 * pointer and reads its value. On the seed input 0 nothing is refreshed:
 * no race.
 *
 * entry: spec-violated. When the reader reads the old pointer before the
 * refresher replaces it, and the free lands before the reader's read of
 * the value, the reader reads freed memory.
 * value: spec-violated. The free before the reader's read of the value is
 * that use after free.
 * Both need the input 1 and a switch between the reader's two reads.
 * fresh: single-ordering. The reader reads the new entry's value only
 * through the pointer published after the value was written. */
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>

struct entry {
	int value;
};

static struct entry *entry;
static int refresh;
static int got;

static void *refresher(void *arg) {
	(void)arg;
	if (!refresh)
		return NULL;
	struct entry *fresh = malloc(sizeof *fresh);
	fresh->value = 2; // race: fresh single-ordering
	struct entry *old = entry;
	entry = fresh; // race: entry spec-violated
	free(old); // race: value spec-violated
	return NULL;
}

static void *reader(void *arg) {
	(void)arg;
	struct entry *e = entry; // race: entry spec-violated
	got = e->value; // race: value spec-violated // race: fresh single-ordering
	return NULL;
}

int main(void) {
	char line[8] = {0};
	if (fgets(line, sizeof line, stdin) != NULL && line[0] == '1')
		refresh = 1;
	entry = malloc(sizeof *entry);
	entry->value = 1;
	pthread_t a, b;
	pthread_create(&a, NULL, reader, NULL);
	pthread_create(&b, NULL, refresher, NULL);
	pthread_join(a, NULL);
	pthread_join(b, NULL);
	printf("got %d\n", got);
	free(entry);
	return 0;
}
