/* Accounts with their own mutexes. Deposits lock the account; the fee
 * sweep reads a balance, computes the fee and writes it back without
 * the account's lock, losing deposits made in between. */
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>

struct account {
	pthread_mutex_t mu;
	long balance; // fix: atomic rejected // fix: atomic verified
};

static struct account *accounts;

static void *deposits(void *arg) {
	for (int i = 0; i < 4; i++) {
		struct account *a = &accounts[i % 2];
		pthread_mutex_lock(&a->mu);
		a->balance += 25;
		pthread_mutex_unlock(&a->mu);
	}
	return NULL;
}

static void *sweep(void *arg) {
	for (int i = 0; i < 2; i++) {
		struct account *acct = &accounts[i];
		long b = acct->balance; // fix: lock acct->mu verified
		long fee = 1;
		acct->balance = b - fee;
	}
	return NULL;
}

int main(void) {
	accounts = calloc(2, sizeof *accounts);
	for (int i = 0; i < 2; i++) {
		pthread_mutex_init(&accounts[i].mu, NULL);
		accounts[i].balance = 100;
	}
	pthread_t d, s;
	pthread_create(&d, NULL, deposits, NULL);
	pthread_create(&s, NULL, sweep, NULL);
	pthread_join(d, NULL);
	pthread_join(s, NULL);
	printf("total %ld\n", accounts[0].balance + accounts[1].balance);
	free(accounts);
	return 0;
}
