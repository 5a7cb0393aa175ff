/* Hidden behind condition-variable order, in a hand-made barrier. The
 * last thread to arrive resets the phase data outside the lock; a thread
 * that had to wait reads it outside the lock after waking. When the
 * threads arrive one at a time with the last arriving first to leave, no
 * thread waits long enough to read it. */
#include <pthread.h>
#include <stdio.h>

static pthread_mutex_t m = PTHREAD_MUTEX_INITIALIZER;
static pthread_cond_t all_in = PTHREAD_COND_INITIALIZER;
static int arrived, phase, phase_total;

static void arrive(int contribution) {
	pthread_mutex_lock(&m);
	int me = ++arrived;
	if (me == 3) {
		phase++;
		pthread_cond_broadcast(&all_in);
		pthread_mutex_unlock(&m);
		phase_total = 0; // race: total output-differs
		return;
	}
	int waited = 0;
	while (arrived < 3) {
		waited = 1;
		pthread_cond_wait(&all_in, &m);
	}
	pthread_mutex_unlock(&m);
	if (waited && contribution == 2)
		printf("phase total seen %d\n", phase_total); // race: total output-differs
}

static void *worker(void *arg) {
	int c = (int)(long)arg;
	pthread_mutex_lock(&m);
	phase_total += c;
	pthread_mutex_unlock(&m);
	arrive(c);
	return NULL;
}

int main(void) {
	pthread_t t[3];
	for (long i = 0; i < 3; i++)
		pthread_create(&t[i], NULL, worker, (void *)(i + 1));
	for (int i = 0; i < 3; i++)
		pthread_join(t[i], NULL);
	printf("phase %d\n", phase);
	return 0;
}
