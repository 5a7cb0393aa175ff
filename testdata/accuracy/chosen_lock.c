// args: a
/* main takes the lock its argument names; the worker always takes lock a.
 * With the seed argument a the two writes are ordered by the lock; with
 * any other first letter main takes lock b, and its write races with the
 * worker's.
 *
 * owner: output-differs. The value printed after both threads ended is
 * the last writer's: 1 when main writes last, 2 when the worker does. The
 * race exists only when the argument does not start with a. */
#include <pthread.h>
#include <stdio.h>

static int owner;
static pthread_mutex_t a = PTHREAD_MUTEX_INITIALIZER;
static pthread_mutex_t b = PTHREAD_MUTEX_INITIALIZER;

static void *worker(void *arg) {
	(void)arg;
	pthread_mutex_lock(&a);
	owner = 2; // race: owner output-differs
	pthread_mutex_unlock(&a);
	return NULL;
}

int main(int argc, char **argv) {
	pthread_t t;
	pthread_create(&t, NULL, worker, NULL);
	pthread_mutex_t *m = (argc > 1 && argv[1][0] == 'a') ? &a : &b;
	pthread_mutex_lock(m);
	owner = 1; // race: owner output-differs
	pthread_mutex_unlock(m);
	pthread_join(t, NULL);
	printf("owner %d\n", owner);
	return 0;
}
