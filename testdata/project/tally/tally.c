/* Part of the tally project (see main.c): two workers count hits; the
 * second forgets the lock. */
#include <pthread.h>
#include <stdlib.h>
#include "tally.h"

struct tally {
	pthread_mutex_t lock;
	pthread_t workers[2];
	int n;
	int hits;
};

static void *careful(void *arg) {
	struct tally *t = arg;
	pthread_mutex_lock(&t->lock);
	t->hits++;
	pthread_mutex_unlock(&t->lock);
	return NULL;
}

static void *careless(void *arg) {
	struct tally *t = arg;
	t->hits++;
	return NULL;
}

struct tally *tally_start(int workers) {
	struct tally *t = calloc(1, sizeof *t);
	pthread_mutex_init(&t->lock, NULL);
	t->n = workers < 2 ? workers : 2;
	pthread_create(&t->workers[0], NULL, careful, t);
	if (t->n > 1)
		pthread_create(&t->workers[1], NULL, careless, t);
	log_line("started", t->n);
	return t;
}

void tally_wait(struct tally *t) {
	for (int i = 0; i < t->n; i++)
		pthread_join(t->workers[i], NULL);
}

int tally_total(struct tally *t) {
	pthread_mutex_lock(&t->lock);
	int h = t->hits;
	pthread_mutex_unlock(&t->lock);
	return h;
}
