/* The futex system call used directly, as hand-written locks and
 * libstdc++ use it: a wait on a word that no longer holds the expected
 * value fails with EAGAIN, a wait with a relative timeout (FUTEX_WAIT) or
 * an absolute one (FUTEX_WAIT_BITSET) fails with ETIMEDOUT when nothing
 * wakes it, a wake with no waiter wakes none, and a thread waiting for a
 * flag is woken by the thread that sets it. Prints the same natively and
 * under augur. */
#define _GNU_SOURCE
#include <errno.h>
#include <linux/futex.h>
#include <pthread.h>
#include <stdatomic.h>
#include <stdio.h>
#include <sys/syscall.h>
#include <time.h>
#include <unistd.h>

static atomic_int flag;

static long futex(atomic_int *word, int op, int val, const struct timespec *t) {
	return syscall(SYS_futex, word, op, val, t, NULL, FUTEX_BITSET_MATCH_ANY);
}

static void *waiter(void *arg) {
	while (atomic_load(&flag) == 0)
		futex(&flag, FUTEX_WAIT_PRIVATE, 0, NULL);
	return NULL;
}

int main(void) {
	atomic_int word = 5;
	long rc = futex(&word, FUTEX_WAIT_PRIVATE, 4, NULL);
	printf("wait on a changed word: %ld %s\n", rc, errno == EAGAIN ? "EAGAIN" : "?");
	struct timespec rel = {0, 2000000};
	rc = futex(&word, FUTEX_WAIT_PRIVATE, 5, &rel);
	printf("relative timeout: %ld %s\n", rc, errno == ETIMEDOUT ? "ETIMEDOUT" : "?");
	struct timespec abs;
	clock_gettime(CLOCK_MONOTONIC, &abs);
	abs.tv_nsec += 2000000;
	if (abs.tv_nsec >= 1000000000) {
		abs.tv_sec++;
		abs.tv_nsec -= 1000000000;
	}
	rc = futex(&word, FUTEX_WAIT_BITSET_PRIVATE, 5, &abs);
	printf("absolute timeout: %ld %s\n", rc, errno == ETIMEDOUT ? "ETIMEDOUT" : "?");
	printf("wake with no waiter: %ld\n", futex(&word, FUTEX_WAKE_PRIVATE, 1, NULL));

	pthread_t t;
	pthread_create(&t, NULL, waiter, NULL);
	atomic_store(&flag, 1);
	futex(&flag, FUTEX_WAKE_PRIVATE, 1, NULL);
	pthread_join(t, NULL);
	printf("waiter done, flag %d\n", atomic_load(&flag));
	return 0;
}
