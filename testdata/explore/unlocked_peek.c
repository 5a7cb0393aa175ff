/* main reads the counter without the lock right after starting the
 * worker, which increments it under the lock: a data race whatever the
 * order, which a detector finds only if main's read runs before the
 * worker takes the lock as well as after it.
 *
 * expect: race (the lines marked `race:`)
 */
#include <pthread.h>
#include <stdio.h>

static pthread_mutex_t m = PTHREAD_MUTEX_INITIALIZER;
static int counter;

static void *worker(void *arg) {
	(void)arg;
	pthread_mutex_lock(&m);
	counter++; // race: counter
	pthread_mutex_unlock(&m);
	return 0;
}

int main(void) {
	pthread_t t;
	pthread_create(&t, 0, worker, 0);
	int peek = counter; // race: counter
	pthread_mutex_lock(&m);
	counter += 10;
	pthread_mutex_unlock(&m);
	pthread_join(t, 0);
	printf("%d\n", peek >= 0);
	return 0;
}
