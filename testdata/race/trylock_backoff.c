/* Two threads need both locks and take them in opposite orders, but each
 * takes its second lock with a try-lock and, when that fails, lets go of
 * the first, backs off and starts again (as std::lock does): an
 * acquisition that cannot wait cannot deadlock, and no inversion is
 * reported. Round robin switching at each failed try-lock once kept the
 * two in step for ever (each took its first lock, failed to try the
 * other's, let go, yielded, and again). */
#include <pthread.h>
#include <sched.h>
#include <stdio.h>

static pthread_mutex_t left = PTHREAD_MUTEX_INITIALIZER, right = PTHREAD_MUTEX_INITIALIZER;
static int moves;

static void take_both(pthread_mutex_t *first, pthread_mutex_t *second) {
	for (;;) {
		pthread_mutex_lock(first);
		if (pthread_mutex_trylock(second) == 0)
			return;
		pthread_mutex_unlock(first);
		sched_yield();
	}
}

static void *worker(void *arg) {
	int flip = (int)(long)arg;
	for (int i = 0; i < 20; i++) {
		if (flip)
			take_both(&right, &left);
		else
			take_both(&left, &right);
		moves++;
		pthread_mutex_unlock(&left);
		pthread_mutex_unlock(&right);
	}
	return NULL;
}

int main(void) {
	pthread_t a, b;
	pthread_create(&a, NULL, worker, (void *)0);
	pthread_create(&b, NULL, worker, (void *)1);
	pthread_join(a, NULL);
	pthread_join(b, NULL);
	printf("%d moves\n", moves);
	return 0;
}
