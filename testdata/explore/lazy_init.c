/* Lazy initialization without a lock: the first caller allocates the
 * table, publishes it, then fills it. A second caller that finds it
 * published uses it half filled.
 *
 * expect: assert (the line marked `bug:`)
 */
#include <assert.h>
#include <pthread.h>
#include <stdlib.h>

struct table {
	int size;
	int *slots;
};

static struct table *instance;

static struct table *get_table(void) {
	if (!instance) {
		struct table *t = malloc(sizeof *t);
		instance = t;
		t->size = 8;
		t->slots = calloc(8, sizeof(int));
	}
	return instance;
}

static void *user(void *arg) {
	(void)arg;
	struct table *t = get_table();
	assert(t->size == 8); // bug: assert
	return 0;
}

int main(void) {
	pthread_t a, b;
	pthread_create(&a, 0, user, 0);
	pthread_create(&b, 0, user, 0);
	pthread_join(a, 0);
	pthread_join(b, 0);
	return 0;
}
