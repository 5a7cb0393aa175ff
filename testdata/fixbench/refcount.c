/* A shared buffer is reference counted: each user takes a reference
 * under the object's mutex, but drops it without the mutex, so two
 * drops can both see one reference left, or neither see zero. */
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>

struct buffer {
	pthread_mutex_t mu;
	int refs; // fix: atomic rejected
	char data[32];
};

static int released;

static void get(struct buffer *b) {
	pthread_mutex_lock(&b->mu);
	b->refs++;
	pthread_mutex_unlock(&b->mu);
}

static void put(struct buffer *b) {
	int left = b->refs - 1; // fix: lock b->mu verified
	b->refs = left;
	if (left == 0)
		released++;
}

static void *user(void *arg) {
	struct buffer *b = arg;
	get(b);
	b->data[0] = 'x';
	put(b);
	return NULL;
}

int main(void) {
	struct buffer *b = calloc(1, sizeof *b);
	pthread_mutex_init(&b->mu, NULL);
	b->refs = 1;
	pthread_t t1, t2;
	pthread_create(&t1, NULL, user, b);
	pthread_create(&t2, NULL, user, b);
	pthread_join(t1, NULL);
	pthread_join(t2, NULL);
	put(b);
	printf("refs %d, released %d\n", b->refs, released);
	free(b);
	return 0;
}
