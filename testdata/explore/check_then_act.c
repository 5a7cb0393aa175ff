/* Check-then-act on a balance: each customer checks that the balance
 * covers a withdrawal, then withdraws, with no lock around the pair. Two
 * customers checking before either withdraws overdraw the account.
 *
 * expect: assert (the line marked `bug:`)
 */
#include <assert.h>
#include <pthread.h>

static long balance = 100;

static void *customer(void *arg) {
	long amount = (long)arg;
	if (balance >= amount) {
		long seen = balance;
		balance = seen - amount;
	}
	return 0;
}

int main(void) {
	pthread_t a, b;
	pthread_create(&a, 0, customer, (void *)80);
	pthread_create(&b, 0, customer, (void *)70);
	pthread_join(a, 0);
	pthread_join(b, 0);
	assert(balance >= 0); // bug: assert
	return 0;
}
