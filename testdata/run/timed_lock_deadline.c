/* pthread_mutex_timedlock, sem_timedwait and the timed read-write locks
 * wait until their deadline: a lock whose holder lets go after 300 ms is
 * taken by a wait with a deadline 5 s ahead, and a wait with a deadline
 * 100 ms ahead times out after 100 ms. (augur once timed the mutex and
 * semaphore waits out after giving the holder "one chance", without moving
 * the clock, and never timed out the read-write locks.) A wait whose
 * deadline has passed still takes what is free, as POSIX says, and times
 * out at once when it is not. */
#include <errno.h>
#include <pthread.h>
#include <semaphore.h>
#include <stdio.h>
#include <time.h>
#include <unistd.h>

static pthread_mutex_t mu = PTHREAD_MUTEX_INITIALIZER;
static pthread_rwlock_t rw = PTHREAD_RWLOCK_INITIALIZER;
static pthread_barrier_t held;
static sem_t sem;

static long nowMs(void) {
	struct timespec t;
	clock_gettime(CLOCK_REALTIME, &t);
	return t.tv_sec * 1000L + t.tv_nsec / 1000000L;
}

static struct timespec afterMs(long ms) {
	struct timespec t;
	clock_gettime(CLOCK_REALTIME, &t);
	t.tv_nsec += ms * 1000000L;
	t.tv_sec += t.tv_nsec / 1000000000L;
	t.tv_nsec %= 1000000000L;
	return t;
}

/* holder locks mu, lets main go on, and unlocks after 300 ms. */
static void *holder(void *arg) {
	(void)arg;
	pthread_mutex_lock(&mu);
	pthread_barrier_wait(&held);
	usleep(300000);
	pthread_mutex_unlock(&mu);
	return NULL;
}

/* poster posts sem after 300 ms. */
static void *poster(void *arg) {
	(void)arg;
	usleep(300000);
	sem_post(&sem);
	return NULL;
}

/* writer holds rw for writing for 300 ms. */
static void *writer(void *arg) {
	(void)arg;
	pthread_rwlock_wrlock(&rw);
	pthread_barrier_wait(&held);
	usleep(300000);
	pthread_rwlock_unlock(&rw);
	return NULL;
}

static void rwWithin(long ms, int write) {
	pthread_t t;
	pthread_create(&t, NULL, writer, NULL);
	pthread_barrier_wait(&held);
	struct timespec until = afterMs(ms);
	long start = nowMs();
	int rc = write ? pthread_rwlock_timedwrlock(&rw, &until) : pthread_rwlock_timedrdlock(&rw, &until);
	long waited = nowMs() - start;
	printf("timed%slock within %ld ms: %s, waited at least 100 ms: %d\n", write ? "wr" : "rd", ms,
	       rc == 0 ? "locked" : rc == ETIMEDOUT ? "timed out" : "error", waited >= 100);
	if (rc == 0)
		pthread_rwlock_unlock(&rw);
	pthread_join(t, NULL);
}

static void lockWithin(long ms) {
	pthread_t t;
	pthread_create(&t, NULL, holder, NULL);
	pthread_barrier_wait(&held);
	struct timespec until = afterMs(ms);
	long start = nowMs();
	int rc = pthread_mutex_timedlock(&mu, &until);
	long waited = nowMs() - start;
	printf("timedlock within %ld ms: %s, waited at least 100 ms: %d\n", ms, rc == 0 ? "locked" : rc == ETIMEDOUT ? "timed out" : "error",
	       waited >= 100);
	if (rc == 0)
		pthread_mutex_unlock(&mu);
	pthread_join(t, NULL);
}

static void waitWithin(long ms) {
	pthread_t t;
	pthread_create(&t, NULL, poster, NULL);
	struct timespec until = afterMs(ms);
	long start = nowMs();
	int rc = sem_timedwait(&sem, &until);
	int e = errno;
	long waited = nowMs() - start;
	printf("sem_timedwait within %ld ms: %s, waited at least 100 ms: %d\n", ms,
	       rc == 0 ? "taken" : e == ETIMEDOUT ? "timed out" : "error", waited >= 100);
	pthread_join(t, NULL);
	if (rc != 0)
		sem_wait(&sem); /* the late post */
}

int main(void) {
	pthread_barrier_init(&held, NULL, 2);
	sem_init(&sem, 0, 0);
	lockWithin(5000);
	lockWithin(100);
	waitWithin(5000);
	waitWithin(100);
	rwWithin(5000, 0);
	rwWithin(100, 1);
	struct timespec past = {1, 0}; /* 1970 */
	printf("past deadline, free mutex: %d\n", pthread_mutex_timedlock(&mu, &past));
	pthread_t t;
	pthread_mutex_unlock(&mu);
	pthread_create(&t, NULL, holder, NULL);
	pthread_barrier_wait(&held);
	printf("past deadline, held mutex: %s\n", pthread_mutex_timedlock(&mu, &past) == ETIMEDOUT ? "timed out" : "other");
	pthread_join(t, NULL);
	sem_post(&sem);
	printf("past deadline, posted: %d", sem_timedwait(&sem, &past));
	int rc = sem_timedwait(&sem, &past);
	printf(", empty: %s\n", rc != 0 && errno == ETIMEDOUT ? "timed out" : "other");
	return 0;
}
