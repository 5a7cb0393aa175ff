/* The reader runs a loop whose macro loads the same field twice at one
 * source location before it reads the flag the writer sets. At the second
 * load every register holds what it held at the first (the field did not
 * change since the last iteration): only the instruction differs. Taking
 * that for a spin called the race single-ordering, though the reader
 * reaches its read in either order and prints what it saw. */
#include <pthread.h>
#include <stdio.h>

#define POSITIVE(p) ((p)->v > 0 ? (p)->v : 0)

struct cell {
	int v, sum;
};

static int flag;

static void *writer(void *arg) {
	(void)arg;
	flag = 1; // race: flag output-differs
	return NULL;
}

static void *reader(void *arg) {
	struct cell *c = arg;
	for (int i = 0; i < 200; i++)
		c->sum += POSITIVE(c);
	printf("sum %d, flag %d\n", c->sum, flag); // race: flag output-differs
	return NULL;
}

int main(void) {
	struct cell c = {3, 0};
	pthread_t w, r;
	pthread_create(&w, NULL, writer, NULL);
	pthread_create(&r, NULL, reader, &c);
	pthread_join(w, NULL);
	pthread_join(r, NULL);
	return 0;
}
