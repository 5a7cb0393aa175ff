/* Two withdrawals check the balance, then take from it. _Atomic makes
 * each read and each -= atomic, but a withdrawal between the other's
 * check and its -= still overdraws the account: the assertion fails in
 * the changed program as in the original, so the atomic fix is rejected
 * for the harm it leaves, not only for its output. */
#include <assert.h>
#include <pthread.h>
#include <stdio.h>

static long balance = 100; // fix: atomic rejected

static void *withdraw(void *arg) {
	if (balance >= 80) // race: balance
		balance -= 80;
	assert(balance >= 0);
	return NULL;
}

int main(void) {
	pthread_t a, b;
	pthread_create(&a, NULL, withdraw, NULL);
	pthread_create(&b, NULL, withdraw, NULL);
	pthread_join(a, NULL);
	pthread_join(b, NULL);
	printf("balance %ld\n", balance);
	return 0;
}
