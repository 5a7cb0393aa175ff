/* Two withdrawals check the balance before taking money. The invariant
 * balance >= 0 holds when one check sees the other's withdrawal, and fails
 * when both check first. */
#include <augur.h>
#include <pthread.h>
#include <stdio.h>

static int balance = 100;

static void *withdraw(void *arg) {
	(void)arg;
	if (balance >= 60) // race: withdraw spec-violated
		balance -= 60; // race: withdraw spec-violated
	return NULL;
}

int main(void) {
	pthread_t a, b;
	pthread_create(&a, NULL, withdraw, NULL);
	pthread_create(&b, NULL, withdraw, NULL);
	pthread_join(a, NULL);
	pthread_join(b, NULL);
	augur_assert(balance >= 0, "balance must not go negative");
	printf("balance %d\n", balance);
	return 0;
}
