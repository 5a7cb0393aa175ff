/* Threads increment shared counters under mutexes, including a recursive
 * and an error-checking mutex; the totals do not depend on the schedule. */
#include <errno.h>
#include <pthread.h>
#include <stdio.h>

#define THREADS 4
#define ITERS 200

static pthread_mutex_t lock = PTHREAD_MUTEX_INITIALIZER;
static pthread_mutex_t rec;
static long counter, rec_counter;

static void bump_twice(void) {
	pthread_mutex_lock(&rec);
	pthread_mutex_lock(&rec);
	rec_counter++;
	pthread_mutex_unlock(&rec);
	pthread_mutex_unlock(&rec);
}

static void *worker(void *arg) {
	long id = (long)arg;
	for (int i = 0; i < ITERS; i++) {
		pthread_mutex_lock(&lock);
		counter += id;
		pthread_mutex_unlock(&lock);
		if (i % 50 == 0)
			bump_twice();
	}
	return (void *)(id * 10);
}

int main(void) {
	pthread_mutexattr_t attr;
	pthread_mutexattr_init(&attr);
	pthread_mutexattr_settype(&attr, PTHREAD_MUTEX_RECURSIVE);
	pthread_mutex_init(&rec, &attr);
	pthread_mutexattr_destroy(&attr);

	pthread_t t[THREADS];
	for (long i = 0; i < THREADS; i++)
		pthread_create(&t[i], NULL, worker, (void *)(i + 1));
	long rets = 0;
	for (int i = 0; i < THREADS; i++) {
		void *r;
		pthread_join(t[i], &r);
		rets += (long)r;
	}
	printf("counter %ld (want %d) rec %ld rets %ld\n", counter, ITERS * (1 + 2 + 3 + 4), rec_counter, rets);

	pthread_mutex_t ec;
	pthread_mutexattr_init(&attr);
	pthread_mutexattr_settype(&attr, PTHREAD_MUTEX_ERRORCHECK);
	pthread_mutex_init(&ec, &attr);
	pthread_mutex_lock(&ec);
	printf("relock %s\n", pthread_mutex_lock(&ec) == EDEADLK ? "EDEADLK" : "?");
	printf("trylock %s\n", pthread_mutex_trylock(&ec) == EBUSY ? "EBUSY" : "?");
	pthread_mutex_unlock(&ec);
	printf("unlock-unowned %s\n", pthread_mutex_unlock(&ec) == EPERM ? "EPERM" : "?");
	return 0;
}
