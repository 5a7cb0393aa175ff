/* A reference count decremented without atomics: two holders drop their
 * references at once, both read 2, both write 1, and the object is never
 * released; main checks that it was.
 *
 * expect: assert (the line marked `bug:`)
 */
#include <assert.h>
#include <pthread.h>
#include <stdlib.h>

struct obj {
	int refs;
	int payload;
};

static int released;

static void put(struct obj *o) {
	int r = o->refs - 1;
	o->refs = r;
	if (r == 0) {
		released++;
		free(o);
	}
}

static void *holder(void *arg) {
	struct obj *o = arg;
	o->payload++;
	put(o);
	return 0;
}

int main(void) {
	struct obj *o = calloc(1, sizeof *o);
	o->refs = 2;
	pthread_t a, b;
	pthread_create(&a, 0, holder, o);
	pthread_create(&b, 0, holder, o);
	pthread_join(a, 0);
	pthread_join(b, 0);
	assert(released == 1); // bug: assert
	return 0;
}
