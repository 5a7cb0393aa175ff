// args: 0
/* Four slots, each with its own lock. main holds slot 2's lock around its
 * update of the total, but first releases the lock of the slot its
 * argument names (a cleanup of a slot it believes it holds). The locks
 * check errors, so releasing a lock main does not hold is a refused call
 * and changes nothing: only the argument 2 leaves main's update
 * unprotected. The lock is chosen by an index, not by a branch, so the
 * input decides which object the unlock names.
 *
 * total: output-differs. The total printed after both threads ended is
 * the last writer's, 5 when main writes last, 7 when the worker does;
 * the race exists only for the argument 2. */
#include <pthread.h>
#include <stdio.h>

static pthread_mutex_t slot[4];
static int total;

static void *worker(void *arg) {
	(void)arg;
	pthread_mutex_lock(&slot[2]);
	total = 7; // race: total output-differs
	pthread_mutex_unlock(&slot[2]);
	return NULL;
}

int main(int argc, char **argv) {
	pthread_mutexattr_t attr;
	pthread_mutexattr_init(&attr);
	pthread_mutexattr_settype(&attr, PTHREAD_MUTEX_ERRORCHECK);
	for (int k = 0; k < 4; k++)
		pthread_mutex_init(&slot[k], &attr);
	int i = argc > 1 ? argv[1][0] - '0' : 0;
	if (i < 0 || i > 3)
		i = 0;
	pthread_t t;
	pthread_create(&t, NULL, worker, NULL);
	pthread_mutex_lock(&slot[2]);
	pthread_mutex_unlock(&slot[i]);
	total = 5; // race: total output-differs
	pthread_mutex_unlock(&slot[2]);
	pthread_join(t, NULL);
	printf("total %d\n", total);
	return 0;
}
