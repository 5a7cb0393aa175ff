/* Three workers print their steps, each line under a lock, so the lines
 * interleave as the schedule goes. main reads a flag another thread
 * clears, without synchronization, and on the old value only takes and
 * drops a lock twice more before joining.
 *
 * pending: k-witness-harmless. The flag's value changes nothing the
 * program prints; the extra lock calls change where the schedule
 * switches threads, and so the order of the workers' lines, which any
 * schedule may change anyway. */
#include <pthread.h>
#include <stdio.h>

static pthread_mutex_t out = PTHREAD_MUTEX_INITIALIZER;
static pthread_mutex_t other = PTHREAD_MUTEX_INITIALIZER;
static int pending = 1;

static void *worker(void *arg) {
	long id = (long)arg;
	for (int i = 0; i < 4; i++) {
		pthread_mutex_lock(&out);
		printf("worker %ld step %d\n", id, i);
		pthread_mutex_unlock(&out);
	}
	return NULL;
}

static void *finisher(void *arg) {
	(void)arg;
	pending = 0; // race: pending k-witness-harmless
	return NULL;
}

int main(void) {
	pthread_t f, w[3];
	pthread_create(&f, NULL, finisher, NULL);
	for (long i = 0; i < 3; i++)
		pthread_create(&w[i], NULL, worker, (void *)(i + 1));
	if (pending) { // race: pending k-witness-harmless
		pthread_mutex_lock(&other);
		pthread_mutex_unlock(&other);
		pthread_mutex_lock(&other);
		pthread_mutex_unlock(&other);
	}
	pthread_join(f, NULL);
	for (int i = 0; i < 3; i++)
		pthread_join(w[i], NULL);
	printf("done\n");
	return 0;
}
