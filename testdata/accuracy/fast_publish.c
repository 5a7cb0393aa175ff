// args: s
/* A producer builds a message and publishes a pointer to it through a
 * plain global that a consumer polls once. In fast mode (first argument
 * f) it publishes the pointer before filling the length; otherwise after.
 *
 * shared_fast: spec-violated. In fast mode, the consumer reading the
 * pointer between its publication and the length's write sees length 0,
 * and its assertion fails. It needs the input f and a switch inside the
 * producer.
 * len_fast: spec-violated. In fast mode, the consumer's read of the
 * length before the producer's write fails the assertion.
 * shared_slow: k-witness-harmless. On the seed input the consumer sees
 * NULL or a complete message, whichever goes first.
 * len_slow: single-ordering. On the seed input the consumer reads the
 * length only through the published pointer, which is published after the
 * length is written: its read cannot come first. */
#include <assert.h>
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>

struct msg {
	int len;
};

static struct msg *shared;
static int fast;

static void *producer(void *arg) {
	(void)arg;
	struct msg *m = calloc(1, sizeof *m);
	if (fast) {
		shared = m; // race: shared_fast spec-violated
		m->len = 4; // race: len_fast spec-violated
	} else {
		m->len = 4; // race: len_slow single-ordering
		shared = m; // race: shared_slow k-witness-harmless
	}
	return NULL;
}

static void *consumer(void *arg) {
	(void)arg;
	struct msg *m = shared; // race: shared_fast spec-violated // race: shared_slow k-witness-harmless
	if (m != NULL)
		assert(m->len == 4); // race: len_fast spec-violated // race: len_slow single-ordering
	return NULL;
}

int main(int argc, char **argv) {
	fast = argc > 1 && argv[1][0] == 'f';
	pthread_t p, c;
	pthread_create(&c, NULL, consumer, NULL);
	pthread_create(&p, NULL, producer, NULL);
	pthread_join(p, NULL);
	pthread_join(c, NULL);
	free(shared);
	printf("ok\n");
	return 0;
}
