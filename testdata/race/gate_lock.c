/* The same opposite lock orders as lock_order.c, but every thread holds the
 * gate lock while it takes them: the inversion cannot deadlock and is not
 * reported. */
#include <pthread.h>
#include <stdio.h>

static pthread_mutex_t gate = PTHREAD_MUTEX_INITIALIZER;
static pthread_mutex_t x = PTHREAD_MUTEX_INITIALIZER, y = PTHREAD_MUTEX_INITIALIZER;
static int shared;

static void *xy(void *arg) {
	(void)arg;
	pthread_mutex_lock(&gate);
	pthread_mutex_lock(&x);
	pthread_mutex_lock(&y);
	shared++;
	pthread_mutex_unlock(&y);
	pthread_mutex_unlock(&x);
	pthread_mutex_unlock(&gate);
	return NULL;
}

static void *yx(void *arg) {
	(void)arg;
	pthread_mutex_lock(&gate);
	pthread_mutex_lock(&y);
	pthread_mutex_lock(&x);
	shared--;
	pthread_mutex_unlock(&x);
	pthread_mutex_unlock(&y);
	pthread_mutex_unlock(&gate);
	return NULL;
}

int main(void) {
	pthread_t a, b;
	pthread_create(&a, NULL, xy, NULL);
	pthread_create(&b, NULL, yx, NULL);
	pthread_join(a, NULL);
	pthread_join(b, NULL);
	printf("%d\n", shared);
	return 0;
}
