/* Two threads take the same two locks in opposite orders, with work
 * between the acquisitions: they deadlock only when each gets its first
 * lock before the other gets its second.
 *
 * expect: deadlock (the line marked `bug:`)
 */
#include <pthread.h>

static pthread_mutex_t accounts = PTHREAD_MUTEX_INITIALIZER, audit_log = PTHREAD_MUTEX_INITIALIZER;
static int balance, entries;

static void *pay(void *arg) {
	(void)arg;
	pthread_mutex_lock(&accounts);
	balance += 5;
	pthread_mutex_lock(&audit_log); // bug: deadlock
	entries++;
	pthread_mutex_unlock(&audit_log);
	pthread_mutex_unlock(&accounts);
	return 0;
}

static void *report(void *arg) {
	(void)arg;
	pthread_mutex_lock(&audit_log);
	entries++;
	pthread_mutex_lock(&accounts);
	int b = balance;
	pthread_mutex_unlock(&accounts);
	pthread_mutex_unlock(&audit_log);
	return (void *)(long)b;
}

int main(void) {
	pthread_t p, r;
	pthread_create(&p, 0, pay, 0);
	pthread_create(&r, 0, report, 0);
	pthread_join(p, 0);
	pthread_join(r, 0);
	return 0;
}
