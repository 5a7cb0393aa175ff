/* Two threads take the same two locks in opposite orders. They run one
 * after the other, so no run deadlocks, but another timing would: a
 * lock-order inversion. */
// inversion: accounts_a accounts_b
#include <pthread.h>
#include <stdio.h>

static pthread_mutex_t accounts_a = PTHREAD_MUTEX_INITIALIZER;
static pthread_mutex_t accounts_b = PTHREAD_MUTEX_INITIALIZER;
static long a_balance = 100, b_balance = 100;

static void *a_to_b(void *arg) {
	(void)arg;
	pthread_mutex_lock(&accounts_a);
	pthread_mutex_lock(&accounts_b);
	a_balance -= 10;
	b_balance += 10;
	pthread_mutex_unlock(&accounts_b);
	pthread_mutex_unlock(&accounts_a);
	return NULL;
}

static void *b_to_a(void *arg) {
	(void)arg;
	pthread_mutex_lock(&accounts_b);
	pthread_mutex_lock(&accounts_a);
	b_balance -= 5;
	a_balance += 5;
	pthread_mutex_unlock(&accounts_a);
	pthread_mutex_unlock(&accounts_b);
	return NULL;
}

int main(void) {
	pthread_t t;
	pthread_create(&t, NULL, a_to_b, NULL);
	pthread_join(t, NULL);
	pthread_create(&t, NULL, b_to_a, NULL);
	pthread_join(t, NULL);
	printf("%ld %ld\n", a_balance, b_balance);
	return 0;
}
