/* Three threads append their id to a shared log under a lock; the order of
 * the log depends on the schedule, and nothing else does. */
#include <pthread.h>
#include <stdio.h>

static pthread_mutex_t mu = PTHREAD_MUTEX_INITIALIZER;
static char log_[64];
static int n;

static void *worker(void *arg) {
	char id = *(char *)arg;
	for (int i = 0; i < 5; i++) {
		pthread_mutex_lock(&mu);
		log_[n++] = id;
		pthread_mutex_unlock(&mu);
	}
	return NULL;
}

int main(void) {
	pthread_t t[3];
	char ids[3] = {'a', 'b', 'c'};
	for (int i = 0; i < 3; i++)
		pthread_create(&t[i], NULL, worker, &ids[i]);
	for (int i = 0; i < 3; i++)
		pthread_join(t[i], NULL);
	printf("%s\n", log_);
	return 0;
}
