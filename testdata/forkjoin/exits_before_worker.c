/* main makes a worker and returns without waiting for it: how far the
 * worker gets before the process ends depends on the schedule. Every
 * schedule is worth running.
 *
 * expect: not only
 */
#include <pthread.h>

static long slots[2];

static void *work(void *arg) {
	(void)arg;
	for (long i = 0; i < 1000000; i++)
		slots[1] += i;
	return NULL;
}

int main(void) {
	pthread_t t;
	pthread_create(&t, NULL, work, NULL);
	for (long i = 0; i < 100; i++)
		slots[0] += i;
	return 0;
}
