// expect: deadlock "all 2 live threads are blocked" line 0
#include <pthread.h>

static pthread_mutex_t a = PTHREAD_MUTEX_INITIALIZER, b = PTHREAD_MUTEX_INITIALIZER;
static pthread_barrier_t both;

static void *other(void *arg) {
	(void)arg;
	pthread_mutex_lock(&b);
	pthread_barrier_wait(&both);
	pthread_mutex_lock(&a);
	return NULL;
}

int main(void) {
	pthread_t t;
	pthread_barrier_init(&both, NULL, 2);
	pthread_create(&t, NULL, other, NULL);
	pthread_mutex_lock(&a);
	pthread_barrier_wait(&both);
	pthread_mutex_lock(&b);
	pthread_join(t, NULL);
	return 0;
}
