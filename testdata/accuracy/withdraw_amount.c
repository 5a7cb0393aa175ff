// args: 3
/* Two tellers withdraw the amount given on the command line (in tens)
 * from a balance of 100, each checking the balance first, without the
 * lock; main asserts that the balance never goes negative. With the seed
 * amount 30 two withdrawals always fit; with 60 or more, both checks can
 * pass before either withdrawal.
 *
 * check_a: spec-violated. With an amount above 50, teller b's withdrawal
 * after teller a's check (which saw 100) overdraws.
 * check_b: spec-violated, the same from teller b's side.
 * take: spec-violated. After both checks passed, either order of the two
 * withdrawals leaves -20 for large amounts; holding one teller before its
 * withdrawal lets the other check and withdraw first, and the overdraft
 * follows.
 * All need a large amount and a switch between a teller's check and its
 * withdrawal. */
#include <assert.h>
#include <pthread.h>
#include <stdio.h>

static int balance = 100;
static int amount = 30;

static void *teller_a(void *arg) {
	(void)arg;
	if (balance >= amount) // race: check_a spec-violated
		balance = balance - amount; // race: check_b spec-violated // race: take spec-violated
	return NULL;
}

static void *teller_b(void *arg) {
	(void)arg;
	if (balance >= amount) // race: check_b spec-violated
		balance = balance - amount; // race: check_a spec-violated // race: take spec-violated
	return NULL;
}

int main(int argc, char **argv) {
	if (argc > 1 && argv[1][0] >= '0' && argv[1][0] <= '9')
		amount = 10 * (argv[1][0] - '0');
	pthread_t a, b;
	pthread_create(&a, NULL, teller_a, NULL);
	pthread_create(&b, NULL, teller_b, NULL);
	pthread_join(a, NULL);
	pthread_join(b, NULL);
	assert(balance >= 0);
	printf("balance %d\n", balance);
	return 0;
}
