/* A racy mode flag decides the order in which the second thread takes two
 * locks. If it sees the flag set, it takes them in the opposite order and,
 * after the barrier, both threads wait for each other forever. */
#include <pthread.h>
#include <stdio.h>

static pthread_mutex_t a = PTHREAD_MUTEX_INITIALIZER, b = PTHREAD_MUTEX_INITIALIZER;
static pthread_barrier_t both;
static int reverse;

static void *first(void *arg) {
	(void)arg;
	reverse = 1; // race: mode spec-violated
	pthread_mutex_lock(&a);
	pthread_barrier_wait(&both);
	pthread_mutex_lock(&b);
	pthread_mutex_unlock(&b);
	pthread_mutex_unlock(&a);
	return NULL;
}

static void *second(void *arg) {
	(void)arg;
	if (reverse) { // race: mode spec-violated
		pthread_mutex_lock(&b);
		pthread_barrier_wait(&both);
		pthread_mutex_lock(&a);
		pthread_mutex_unlock(&a);
		pthread_mutex_unlock(&b);
	} else {
		pthread_barrier_wait(&both);
		pthread_mutex_lock(&a);
		pthread_mutex_lock(&b);
		pthread_mutex_unlock(&b);
		pthread_mutex_unlock(&a);
	}
	return NULL;
}

int main(void) {
	pthread_t x, y;
	pthread_barrier_init(&both, NULL, 2);
	pthread_create(&y, NULL, second, NULL);
	pthread_create(&x, NULL, first, NULL);
	pthread_join(x, NULL);
	pthread_join(y, NULL);
	puts("done");
	return 0;
}
