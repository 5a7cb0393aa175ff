/* A balance guarded by a mutex in the deposits but not in the bonus
 * thread, whose += can lose a deposit. The fix takes the lock the
 * deposits take around the bonus; making balance atomic works too. */
#include <pthread.h>
#include <stdio.h>

static pthread_mutex_t bank = PTHREAD_MUTEX_INITIALIZER;
static long balance; // fix: atomic verified

static void *deposit(void *arg) {
	for (int i = 0; i < 3; i++) {
		pthread_mutex_lock(&bank);
		balance += 10;
		pthread_mutex_unlock(&bank);
	}
	return NULL;
}

static void *bonus(void *arg) {
	balance += 5; // race: balance // fix: lock bank verified
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
