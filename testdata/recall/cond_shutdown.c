/* Hidden behind condition-variable order. Workers sleep on the queue's
 * condition; shutdown sets `stopping` under the lock and broadcasts, then
 * (outside the lock) writes the final tally. A worker woken by the
 * broadcast reads the tally outside the lock to report it. When shutdown
 * runs before the workers wait, they see `stopping` at once and leave
 * through the path that does not read the tally. */
#include <pthread.h>
#include <stdio.h>

static pthread_mutex_t m = PTHREAD_MUTEX_INITIALIZER;
static pthread_cond_t work = PTHREAD_COND_INITIALIZER;
static int stopping, items, tally;

static void *worker(void *arg) {
	(void)arg;
	pthread_mutex_lock(&m);
	if (stopping) {
		pthread_mutex_unlock(&m);
		return NULL;
	}
	while (!stopping && items == 0)
		pthread_cond_wait(&work, &m);
	pthread_mutex_unlock(&m);
	printf("worker saw tally %d\n", tally); // race: tally output-differs
	return NULL;
}

static void *shutdown_all(void *arg) {
	(void)arg;
	pthread_mutex_lock(&m);
	stopping = 1;
	pthread_cond_broadcast(&work);
	pthread_mutex_unlock(&m);
	tally = 99; // race: tally output-differs
	return NULL;
}

int main(void) {
	pthread_t s, w;
	pthread_create(&s, NULL, shutdown_all, NULL);
	pthread_create(&w, NULL, worker, NULL);
	pthread_join(s, NULL);
	pthread_join(w, NULL);
	return 0;
}
