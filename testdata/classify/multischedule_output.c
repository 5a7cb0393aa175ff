/* Two withdrawals check the balance, then take money. The alternate order
 * of one's update and the other's check makes the check first and the
 * update right after it: the checked withdrawal then takes the money the
 * balance no longer has, and the program prints -20 instead of 40. The
 * two updates race with each other too (found by PCT switching at the
 * racing accesses). */
#include <pthread.h>
#include <stdio.h>

static int balance = 100;

static void *withdraw(void *arg) {
	(void)arg;
	if (balance >= 60) // race: withdraw output-differs
		balance -= 60; // race: withdraw output-differs // race: update output-differs
	return NULL;
}

int main(void) {
	pthread_t a, b;
	pthread_create(&a, NULL, withdraw, NULL);
	pthread_create(&b, NULL, withdraw, NULL);
	pthread_join(a, NULL);
	pthread_join(b, NULL);
	printf("balance %d\n", balance);
	return 0;
}
