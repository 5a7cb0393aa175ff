/* A pool's destroy busy-waits until the count of live workers is zero and
 * then frees the pool; the last worker decrements the count under the
 * pool's mutex and then unlocks it. The free can land between the
 * decrement and the unlock.
 *
 * alive: spec-violated. Holding the worker back, main can only spin: the
 * other order of the race cannot be enforced. But in its one order, a
 * switch to main right after the decrement lets main free the pool before
 * the worker's unlock, which then touches freed memory.
 * freed: spec-violated. main's free races with the worker's decrement
 * (main frees after reading the decremented count, with nothing ordering
 * them). It too can only follow the decrement, and in that order the free
 * before the worker's unlock is the same use after free.
 * locked: single-ordering. The free also races with the worker's lock of
 * the pool's mutex (a read of the mutex, as ThreadSanitizer counts it),
 * which only the decrement's order allows before it; the use after free
 * in that one order is the two races' above. */
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>

struct pool {
	pthread_mutex_t mu;
	volatile int alive;
};

static void *worker(void *arg) {
	struct pool *p = arg;
	pthread_mutex_lock(&p->mu); // race: locked single-ordering
	p->alive = p->alive - 1; // race: alive spec-violated // race: freed spec-violated
	pthread_mutex_unlock(&p->mu);
	return NULL;
}

int main(void) {
	struct pool *p = malloc(sizeof *p);
	pthread_mutex_init(&p->mu, NULL);
	p->alive = 1;
	pthread_t t;
	pthread_create(&t, NULL, worker, p);
	while (p->alive > 0) // race: alive spec-violated
		;
	free(p); // race: freed spec-violated // race: locked single-ordering
	pthread_join(t, NULL);
	printf("destroyed\n");
	return 0;
}
