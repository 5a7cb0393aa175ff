/* The account is locked through small helpers, as real code wraps its
 * mutexes; the statement job reads the balance and writes the fee back
 * without calling them. */
#include <pthread.h>
#include <stdio.h>

struct account {
	pthread_mutex_t mu;
	long balance; // fix: atomic rejected // fix: atomic verified
};

static struct account checking = {PTHREAD_MUTEX_INITIALIZER, 500};

static void account_lock(struct account *a) { pthread_mutex_lock(&a->mu); }
static void account_unlock(struct account *a) { pthread_mutex_unlock(&a->mu); }

static void *payroll(void *arg) {
	struct account *a = arg;
	for (int i = 0; i < 2; i++) {
		account_lock(a);
		a->balance += 100;
		account_unlock(a);
	}
	return NULL;
}

static void *statement(void *arg) {
	struct account *a = arg;
	long b = a->balance; // fix: lock a->mu verified
	a->balance = b - 3;
	return NULL;
}

int main(void) {
	pthread_t p, s;
	pthread_create(&p, NULL, payroll, &checking);
	pthread_create(&s, NULL, statement, &checking);
	pthread_join(p, NULL);
	pthread_join(s, NULL);
	printf("balance %ld\n", checking.balance);
	return 0;
}
