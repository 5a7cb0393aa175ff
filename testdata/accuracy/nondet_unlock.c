/* In the style of verification benchmarks: an input (a nondeterministic
 * integer) decides whether main releases the lock before or after its
 * write. On the seed input 0 the write is inside the critical section;
 * on an input above 5 it is not, and it races with the worker's.
 *
 * level: output-differs. The level printed at the end is the last
 * writer's (3 or 4); the race exists only for inputs above 5. */
#include <pthread.h>
#include <stdio.h>

extern int __VERIFIER_nondet_int(void);

static int level;
static pthread_mutex_t m = PTHREAD_MUTEX_INITIALIZER;

static void *worker(void *arg) {
	(void)arg;
	pthread_mutex_lock(&m);
	level = 4; // race: level output-differs
	pthread_mutex_unlock(&m);
	return NULL;
}

int main(void) {
	int x = __VERIFIER_nondet_int();
	pthread_t t;
	pthread_create(&t, NULL, worker, NULL);
	pthread_mutex_lock(&m);
	if (x > 5)
		pthread_mutex_unlock(&m);
	level = 3; // race: level output-differs
	if (x <= 5)
		pthread_mutex_unlock(&m);
	pthread_join(t, NULL);
	printf("level %d\n", level);
	return 0;
}
