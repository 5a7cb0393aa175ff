/* Two tellers withdraw from one account. The first checks the balance
 * and withdraws under the account's mutex; the second checks and
 * withdraws without it, so both can pass the check and overdraw the
 * account. The lock fix takes the whole if, check and withdrawal. */
#include <assert.h>
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>

struct account {
	pthread_mutex_t lock;
	long balance; // fix: atomic rejected
};

static void *teller(void *arg) {
	struct account *a = arg;
	pthread_mutex_lock(&a->lock);
	if (a->balance >= 80)
		a->balance -= 80;
	pthread_mutex_unlock(&a->lock);
	return NULL;
}

static void *atm(void *arg) {
	struct account *acct = arg;
	if (acct->balance >= 80) // race: acct->balance // fix: lock acct->lock verified
		acct->balance -= 80; // race: acct->balance
	assert(acct->balance >= 0);
	return NULL;
}

int main(void) {
	struct account *acct = malloc(sizeof *acct);
	pthread_mutex_init(&acct->lock, NULL);
	acct->balance = 100;
	pthread_t t, m;
	pthread_create(&t, NULL, teller, acct);
	pthread_create(&m, NULL, atm, acct);
	pthread_join(t, NULL);
	pthread_join(m, NULL);
	printf("balance %ld\n", acct->balance);
	free(acct);
	return 0;
}
