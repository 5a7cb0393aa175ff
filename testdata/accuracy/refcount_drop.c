/* Two holders drop their references to a shared object with a plain
 * decrement and free it when they see the count reach zero.
 *
 * drop: spec-violated. When both decrements happen before either check,
 * both holders see zero and free the object twice.
 * check: spec-violated. A holder's check that comes after the other's
 * decrement sees zero as well: the same double free.
 * late: spec-violated. The free by the holder that saw zero races with the
 * other holder's check: when the other decremented first but checks
 * after the free, its check reads freed memory.
 * gone: single-ordering. The free also races with the other holder's
 * decrement; the decrement can only come first (the count reaches zero
 * only after both). In that order the other holder's check can still come
 * after the free and read freed memory, but that is the late race's
 * consequence: its two orders ran, and only the free first fails. */
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>

struct obj {
	int refs;
	int data;
};

static int freed;

static void *holder(void *arg) {
	struct obj *o = arg;
	o->refs = o->refs - 1; // race: drop spec-violated // race: check spec-violated // race: gone single-ordering
	if (o->refs == 0) { // race: check spec-violated // race: late spec-violated
		free(o); // race: gone single-ordering // race: late spec-violated
		__atomic_fetch_add(&freed, 1, __ATOMIC_SEQ_CST);
	}
	return NULL;
}

int main(void) {
	struct obj *o = malloc(sizeof *o);
	o->refs = 2;
	o->data = 1;
	pthread_t a, b;
	pthread_create(&a, NULL, holder, o);
	pthread_create(&b, NULL, holder, o);
	pthread_join(a, NULL);
	pthread_join(b, NULL);
	printf("freed %d\n", freed);
	return 0;
}
