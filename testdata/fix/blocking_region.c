/* The fee path reads the balance, waits for a rate it fetches (a sleep
 * stands for it), and writes the balance back: holding the account's
 * mutex across the wait would stall every deposit, so the lock fix is
 * refused with that reason rather than offered. A compare-exchange loop
 * holds nothing while it waits. */
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <unistd.h>

struct account {
	pthread_mutex_t lock;
	long balance; // fix: atomic rejected
};

static void *deposit(void *arg) {
	struct account *a = arg;
	for (int i = 0; i < 3; i++) {
		pthread_mutex_lock(&a->lock);
		a->balance += 10;
		pthread_mutex_unlock(&a->lock);
	}
	return NULL;
}

static void *charge(void *arg) {
	struct account *acct = arg;
	long seen = acct->balance; // race: acct->balance // fix: lock refused // fix: atomic verified
	usleep(100);
	acct->balance = seen - 5; // race: acct->balance
	return NULL;
}

int main(void) {
	struct account *acct = malloc(sizeof *acct);
	pthread_mutex_init(&acct->lock, NULL);
	acct->balance = 100;
	pthread_t d, c;
	pthread_create(&d, NULL, deposit, acct);
	pthread_create(&c, NULL, charge, acct);
	pthread_join(d, NULL);
	pthread_join(c, NULL);
	printf("balance %ld\n", acct->balance);
	free(acct);
	return 0;
}
