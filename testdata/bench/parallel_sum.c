/* Four threads add 400,000 numbers into one total, taking a mutex for
 * every addition: a lock acquisition every few instructions. */
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>

#define T 4

static pthread_mutex_t mu = PTHREAD_MUTEX_INITIALIZER;
static long total, n;

static void *worker(void *arg) {
	long id = (long)arg;
	for (long i = id; i < n; i += T) {
		pthread_mutex_lock(&mu);
		total += i;
		pthread_mutex_unlock(&mu);
	}
	return NULL;
}

int main(int argc, char **argv) {
	n = argc > 1 ? atol(argv[1]) : 400000;
	pthread_t t[T];
	for (long i = 0; i < T; i++)
		pthread_create(&t[i], NULL, worker, (void *)i);
	for (int i = 0; i < T; i++)
		pthread_join(t[i], NULL);
	printf("%ld\n", total);
	return 0;
}
