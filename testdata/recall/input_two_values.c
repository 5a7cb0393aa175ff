/* Hidden behind narrow inputs: the fast path that skips the lock is taken
 * only when x is 7 and y is 29. */
#include <pthread.h>
#include <stdio.h>

extern int __VERIFIER_nondet_int(void);

static pthread_mutex_t m = PTHREAD_MUTEX_INITIALIZER;
static int x, y, balance = 100;

static void *withdraw(void *arg) {
	(void)arg;
	if (x == 7 && y == 29) {
		balance -= 10; // race: balance output-differs
		return NULL;
	}
	pthread_mutex_lock(&m);
	balance -= 10;
	pthread_mutex_unlock(&m);
	return NULL;
}

static void *deposit(void *arg) {
	(void)arg;
	pthread_mutex_lock(&m);
	balance += 5; // race: balance output-differs
	pthread_mutex_unlock(&m);
	return NULL;
}

int main(void) {
	x = __VERIFIER_nondet_int();
	y = __VERIFIER_nondet_int();
	pthread_t a, b;
	pthread_create(&a, NULL, withdraw, NULL);
	pthread_create(&b, NULL, deposit, NULL);
	pthread_join(a, NULL);
	pthread_join(b, NULL);
	printf("balance %d\n", balance);
	return 0;
}
