/* Lost updates on a shared counter: counter++ is a load and a store, and
 * a switch between them drops the other thread's increment.
 *
 * expect: assert (the line marked `bug:`)
 */
#include <assert.h>
#include <pthread.h>

static int counter;

static void *add(void *arg) {
	(void)arg;
	for (int i = 0; i < 20; i++)
		counter++;
	return 0;
}

int main(void) {
	pthread_t a, b;
	pthread_create(&a, 0, add, 0);
	pthread_create(&b, 0, add, 0);
	pthread_join(a, 0);
	pthread_join(b, 0);
	assert(counter == 40); // bug: assert
	return 0;
}
