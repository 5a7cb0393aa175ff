/* Two withdrawals check the balance, then take money. With round robin
 * after the race both orders print 40; only a post-race schedule that
 * switches threads between a check and the reload of the balance prints
 * -20: the difference needs multischedule analysis. The two updates race
 * with each other too (found by PCT switching at the racing accesses). */
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
