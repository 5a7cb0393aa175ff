/* The deposits update the balance under the bank's mutex; the bonus reads
 * it into a local, computes its bonus and writes it back two statements
 * later, without the mutex. A deposit between the read and the
 * write is lost. Holding the mutex around the read alone, or the write
 * alone, leaves that window open: the lock fix spans the whole region,
 * from the read to the write. Making the balance atomic leaves it open
 * too; a compare-exchange loop from the read to the write closes it. */
#include <pthread.h>
#include <stdio.h>

static pthread_mutex_t bank = PTHREAD_MUTEX_INITIALIZER;
static long balance = 100; // fix: atomic rejected

static void *deposit(void *arg) {
	for (int i = 0; i < 3; i++) {
		pthread_mutex_lock(&bank);
		balance += 10;
		pthread_mutex_unlock(&bank);
	}
	return NULL;
}

static void *bonus(void *arg) {
	long seen = balance; // race: balance // fix: lock bank verified // fix: atomic verified
	long extra = seen > 0 ? 5 : 0;
	/* an account in credit earns the bonus */
	balance = seen + extra; // race: balance
	return NULL;
}

int main(void) {
	pthread_t d, b;
	pthread_create(&d, NULL, deposit, NULL);
	pthread_create(&b, NULL, bonus, NULL);
	pthread_join(d, NULL);
	pthread_join(b, NULL);
	printf("balance %ld\n", balance);
	return 0;
}
