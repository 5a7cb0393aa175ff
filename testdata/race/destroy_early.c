/* A spin lock, a semaphore and a barrier destroyed while a worker may
 * still use them: main tears each down as soon as it has started the
 * worker. Each destroy races with the worker's use, as ThreadSanitizer
 * reports such races. glibc's destroys of these objects check nothing and
 * change nothing a later use would notice, and the memory stays, so the
 * late uses behave as they would have before the destroys: each race is
 * harmless in every order, though POSIX leaves it undefined. */
#include <pthread.h>
#include <semaphore.h>
#include <stdio.h>

static pthread_spinlock_t spin;
static sem_t ready;
static pthread_barrier_t gate;
static int count;

static void *worker(void *arg) {
	(void)arg;
	pthread_spin_lock(&spin); // race: spin k-witness-harmless
	count++;
	pthread_spin_unlock(&spin);
	sem_post(&ready); // race: ready k-witness-harmless
	pthread_barrier_wait(&gate); // race: gate k-witness-harmless
	return NULL;
}

int main(void) {
	pthread_spin_init(&spin, PTHREAD_PROCESS_PRIVATE);
	sem_init(&ready, 0, 0);
	pthread_barrier_init(&gate, NULL, 1);
	pthread_t t;
	pthread_create(&t, NULL, worker, NULL);
	pthread_spin_destroy(&spin); // race: spin k-witness-harmless
	sem_destroy(&ready); // race: ready k-witness-harmless
	pthread_barrier_destroy(&gate); // race: gate k-witness-harmless
	pthread_join(t, NULL);
	printf("%d\n", count);
	return 0;
}
