/* Publication before initialization: the producer makes the object
 * visible, then fills it. A consumer that finds it in between reads a
 * field not yet written.
 *
 * expect: assert (the line marked `bug:`)
 */
#include <assert.h>
#include <pthread.h>
#include <sched.h>
#include <stdlib.h>

struct config {
	int version;
	int limit;
};

static struct config *current;

static void *producer(void *arg) {
	(void)arg;
	struct config *c = calloc(1, sizeof *c);
	current = c; /* too early */
	c->version = 2;
	c->limit = 64;
	return 0;
}

static void *consumer(void *arg) {
	(void)arg;
	struct config *c;
	while ((c = current) == 0)
		sched_yield();
	assert(c->limit == 64); // bug: assert
	return 0;
}

int main(void) {
	pthread_t a, b;
	pthread_create(&b, 0, consumer, 0);
	pthread_create(&a, 0, producer, 0);
	pthread_join(a, 0);
	pthread_join(b, 0);
	free(current);
	return 0;
}
