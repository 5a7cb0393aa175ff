/* The writer publishes its configuration before filling it in: the
 * reader, which waits for the pointer, can read the port before it is
 * set. Publishing after the stores fixes it. */
#include <pthread.h>
#include <sched.h>
#include <stdio.h>
#include <stdlib.h>

struct config {
	int port; // fix: atomic rejected
	int workers; // fix: atomic rejected
};

static struct config *volatile shared;

static void *reader(void *arg) {
	struct config *c;
	while ((c = shared) == NULL)
		sched_yield();
	printf("port %d, %d workers\n", c->port, c->workers); // race: port
	return NULL;
}

static void *writer(void *arg) {
	struct config *c = malloc(sizeof *c);
	shared = c; // fix: publish verified
	c->port = 8080; // race: port
	c->workers = 4;
	return NULL;
}

int main(void) {
	pthread_t r, w;
	pthread_create(&r, NULL, reader, NULL);
	pthread_create(&w, NULL, writer, NULL);
	pthread_join(r, NULL);
	pthread_join(w, NULL);
	free((void *)shared);
	return 0;
}
