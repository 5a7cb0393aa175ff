/* pthread_once, __thread variables and pthread keys. */
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>

static pthread_once_t once = PTHREAD_ONCE_INIT;
static int init_calls;
static __thread int tls_counter = 100;
static __thread char tls_name[16];
static pthread_key_t key;
static pthread_mutex_t mu = PTHREAD_MUTEX_INITIALIZER;
static long total;

static void init(void) { init_calls++; }

static void *worker(void *arg) {
	long id = (long)arg;
	pthread_once(&once, init);
	for (int i = 0; i < 10; i++)
		tls_counter += (int)id;
	tls_name[0] = (char)('a' + id);
	long *mine = malloc(sizeof *mine);
	*mine = id * 1000;
	pthread_setspecific(key, mine);
	long *back = pthread_getspecific(key);
	pthread_mutex_lock(&mu);
	total += tls_counter + *back + tls_name[0];
	pthread_mutex_unlock(&mu);
	free(mine);
	return NULL;
}

int main(void) {
	pthread_key_create(&key, NULL);
	pthread_t t[3];
	for (long i = 0; i < 3; i++)
		pthread_create(&t[i], NULL, worker, (void *)(i + 1));
	for (int i = 0; i < 3; i++)
		pthread_join(t[i], NULL);
	pthread_once(&once, init);
	printf("init %d main tls %d total %ld key-in-main %p\n", init_calls, tls_counter, total, pthread_getspecific(key));
	return 0;
}
