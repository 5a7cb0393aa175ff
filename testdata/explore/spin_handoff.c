/* A spin-wait without sleeping: the waiter spins on an atomic flag the
 * worker sets after its work. Holding the worker back only makes the
 * waiter spin longer; the program always ends with the same output.
 *
 * expect: no harm
 */
#include <pthread.h>
#include <stdio.h>

static int flag;
static int value;

static void *worker(void *arg) {
	(void)arg;
	int v = 0;
	for (int i = 0; i < 5000; i++)
		v += i & 3;
	value = v;
	__atomic_store_n(&flag, 1, __ATOMIC_RELEASE);
	return 0;
}

int main(void) {
	pthread_t w;
	pthread_create(&w, 0, worker, 0);
	while (!__atomic_load_n(&flag, __ATOMIC_ACQUIRE))
		;
	printf("value %d\n", value);
	pthread_join(w, 0);
	return 0;
}
