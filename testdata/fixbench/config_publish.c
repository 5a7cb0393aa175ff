/* The loader publishes its settings before it fills them in; the server
 * thread waits for the pointer and reads a zero port. */
#include <pthread.h>
#include <sched.h>
#include <stdio.h>
#include <stdlib.h>

struct settings {
	int port; // fix: atomic rejected
	int backlog; // fix: atomic rejected
};

static struct settings *volatile current; // fix: publish verified

static void *server(void *arg) {
	struct settings *s;
	while ((s = current) == NULL)
		sched_yield();
	printf("listening on %d (backlog %d)\n", s->port, s->backlog);
	return NULL;
}

static void *loader(void *arg) {
	struct settings *s = malloc(sizeof *s);
	current = s;
	s->port = 443;
	s->backlog = 16;
	return NULL;
}

int main(void) {
	pthread_t sv, ld;
	pthread_create(&sv, NULL, server, NULL);
	pthread_create(&ld, NULL, loader, NULL);
	pthread_join(sv, NULL);
	pthread_join(ld, NULL);
	return 0;
}
