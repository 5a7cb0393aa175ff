/* Every kind of synchronization object torn down correctly: each worker
 * signals, posts and unlocks before the destroys, and main destroys and
 * frees an object only once every use of it is ordered before (a join, a
 * wait it was signalled out of under the mutex, a semaphore it took, a
 * barrier every thread has reached). No race: the destroys are writes of
 * the objects that every use is ordered before. */
#include <pthread.h>
#include <semaphore.h>
#include <stdio.h>
#include <stdlib.h>

#define WORKERS 3

struct shared {
	pthread_mutex_t lock;
	pthread_cond_t changed;
	pthread_rwlock_t table_lock;
	pthread_spinlock_t spin;
	sem_t finished;
	pthread_barrier_t start;
	int table[WORKERS];
	int done;
	long spun;
};

static void *work(void *arg) {
	struct shared *s = arg;
	static int next;
	pthread_barrier_wait(&s->start);
	pthread_mutex_lock(&s->lock);
	int me = next++;
	pthread_mutex_unlock(&s->lock);
	pthread_rwlock_wrlock(&s->table_lock);
	s->table[me] = (me + 1) * 10;
	pthread_rwlock_unlock(&s->table_lock);
	pthread_spin_lock(&s->spin);
	s->spun += me;
	pthread_spin_unlock(&s->spin);
	pthread_mutex_lock(&s->lock);
	s->done++;
	pthread_cond_signal(&s->changed);
	pthread_mutex_unlock(&s->lock);
	sem_post(&s->finished);
	return NULL;
}

int main(void) {
	struct shared *s = calloc(1, sizeof *s);
	pthread_mutex_init(&s->lock, NULL);
	pthread_cond_init(&s->changed, NULL);
	pthread_rwlock_init(&s->table_lock, NULL);
	pthread_spin_init(&s->spin, PTHREAD_PROCESS_PRIVATE);
	sem_init(&s->finished, 0, 0);
	pthread_barrier_init(&s->start, NULL, WORKERS + 1);
	pthread_t t[WORKERS];
	for (int i = 0; i < WORKERS; i++)
		pthread_create(&t[i], NULL, work, s);
	pthread_barrier_wait(&s->start);
	pthread_barrier_destroy(&s->start);

	pthread_mutex_lock(&s->lock);
	while (s->done < WORKERS)
		pthread_cond_wait(&s->changed, &s->lock);
	pthread_mutex_unlock(&s->lock);
	for (int i = 0; i < WORKERS; i++)
		sem_wait(&s->finished);
	sem_destroy(&s->finished);

	pthread_rwlock_rdlock(&s->table_lock);
	int sum = s->table[0] + s->table[1] + s->table[2];
	pthread_rwlock_unlock(&s->table_lock);
	for (int i = 0; i < WORKERS; i++)
		pthread_join(t[i], NULL);
	pthread_cond_destroy(&s->changed);
	pthread_rwlock_destroy(&s->table_lock);
	pthread_spin_destroy(&s->spin);
	pthread_mutex_destroy(&s->lock);
	printf("sum %d spun %ld\n", sum, s->spun);
	free(s);
	return 0;
}
