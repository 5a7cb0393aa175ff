/* An order violation inside one thread: the worker raises `ready` before
 * it stores the result, so a waiter released by the flag can read the
 * result before it is there.
 *
 * expect: assert (the line marked `bug:`)
 */
#include <assert.h>
#include <pthread.h>
#include <sched.h>

static volatile int ready;
static int result;

static int compute(void) {
	int r = 0;
	for (int i = 1; i <= 10; i++)
		r += i;
	return r;
}

static void *worker(void *arg) {
	(void)arg;
	int r = compute();
	ready = 1;
	result = r;
	return 0;
}

int main(void) {
	pthread_t t;
	pthread_create(&t, 0, worker, 0);
	while (!ready)
		sched_yield();
	assert(result == 55); // bug: assert
	pthread_join(t, 0);
	return 0;
}
