/* An atomicity violation across two critical sections: each transfer
 * debits one account under its lock and credits the other under its own;
 * the auditor reads both accounts, each under its lock. Every access is
 * protected, there is no data race, yet an audit between a debit and its
 * credit sees money missing.
 *
 * expect: assert (the line marked `bug:`)
 */
#include <assert.h>
#include <pthread.h>

static pthread_mutex_t la = PTHREAD_MUTEX_INITIALIZER, lb = PTHREAD_MUTEX_INITIALIZER;
static int a = 100, b = 100;

static void *transfer(void *arg) {
	(void)arg;
	for (int i = 0; i < 2; i++) {
		pthread_mutex_lock(&la);
		a -= 10;
		pthread_mutex_unlock(&la);
		pthread_mutex_lock(&lb);
		b += 10;
		pthread_mutex_unlock(&lb);
	}
	return 0;
}

static void *audit(void *arg) {
	(void)arg;
	pthread_mutex_lock(&lb);
	int sb = b;
	pthread_mutex_unlock(&lb);
	pthread_mutex_lock(&la);
	int sa = a;
	pthread_mutex_unlock(&la);
	assert(sa + sb == 200); // bug: assert
	return 0;
}

int main(void) {
	pthread_t t, u;
	pthread_create(&u, 0, audit, 0);
	pthread_create(&t, 0, transfer, 0);
	pthread_join(t, 0);
	pthread_join(u, 0);
	return 0;
}
