/* Each account carries its own mutex. Deposits take it through their
 * pointer; the fee path reads the balance into a local, computes,
 * and writes it back two statements later without it. */
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>

struct account {
	long id;
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
	long seen = acct->balance; // race: acct->balance // fix: lock acct->lock verified // fix: atomic verified
	long fee = seen > 50 ? 5 : 0; /* a fee while in credit */
	acct->balance = seen - fee; // race: acct->balance
	return NULL;
}

int main(void) {
	struct account *acct = malloc(sizeof *acct);
	acct->id = 7;
	acct->balance = 100;
	pthread_mutex_init(&acct->lock, NULL);
	pthread_t d, b;
	pthread_create(&d, NULL, deposit, acct);
	pthread_create(&b, NULL, charge, acct);
	pthread_join(d, NULL);
	pthread_join(b, NULL);
	printf("balance %ld\n", acct->balance);
	free(acct);
	return 0;
}
