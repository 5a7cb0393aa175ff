/* In the style of verification benchmarks: a nondeterministic input
 * picks which of two mutexes guards main's update of a shared balance; the
 * worker always uses the first. On the seed input 0 both use the same
 * mutex.
 *
 * balance: output-differs. Each thread adds to the balance with a read
 * and a write (balance = balance + k); when they hold different mutexes
 * the worker's update can fall between main's read and write and be lost,
 * so the balance printed is 110 in one order and 10 or 100 in the other.
 * The race exists only when the input is nonzero. */
#include <pthread.h>
#include <stdio.h>

extern int __VERIFIER_nondet_int(void);

static int balance;
static pthread_mutex_t m1 = PTHREAD_MUTEX_INITIALIZER;
static pthread_mutex_t m2 = PTHREAD_MUTEX_INITIALIZER;

static void *worker(void *arg) {
	(void)arg;
	pthread_mutex_lock(&m1);
	balance = balance + 100; // race: balance output-differs
	pthread_mutex_unlock(&m1);
	return NULL;
}

int main(void) {
	int which = __VERIFIER_nondet_int();
	pthread_mutex_t *m = which ? &m2 : &m1;
	pthread_t t;
	pthread_create(&t, NULL, worker, NULL);
	pthread_mutex_lock(m);
	balance = balance + 10; // race: balance output-differs
	pthread_mutex_unlock(m);
	pthread_join(t, NULL);
	printf("balance %d\n", balance);
	return 0;
}
