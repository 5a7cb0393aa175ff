// expect: deadlock "all 2 live threads are blocked" line 0
/* As deadlock.c, with a spin lock and a read-write lock: main holds the
 * spin lock and waits to write, the other thread holds the write lock and
 * waits for the spin lock. The report names who holds each. */
#include <pthread.h>

static pthread_spinlock_t spin;
static pthread_rwlock_t rw = PTHREAD_RWLOCK_INITIALIZER;
static pthread_barrier_t both;

static void *other(void *arg) {
	(void)arg;
	pthread_rwlock_wrlock(&rw);
	pthread_barrier_wait(&both);
	pthread_spin_lock(&spin);
	return NULL;
}

int main(void) {
	pthread_t t;
	pthread_spin_init(&spin, PTHREAD_PROCESS_PRIVATE);
	pthread_barrier_init(&both, NULL, 2);
	pthread_create(&t, NULL, other, NULL);
	pthread_spin_lock(&spin);
	pthread_barrier_wait(&both);
	pthread_rwlock_wrlock(&rw);
	pthread_join(t, NULL);
	return 0;
}
