/* Hidden behind semaphore order. A pool of one connection guarded by a
 * counting semaphore: a client that finds the pool empty records the
 * contention outside any lock before it blocks, and the client returning
 * the connection reads that record outside any lock after its post. When
 * each client gets the connection at once, nobody records anything. */
#include <pthread.h>
#include <semaphore.h>
#include <stdio.h>

static sem_t pool;
static int contended;

static void *client(void *arg) {
	long id = (long)arg;
	if (sem_trywait(&pool) != 0) {
		contended = (int)id; // race: contended output-differs
		sem_wait(&pool);
	}
	sem_post(&pool);
	if (id == 1)
		printf("contended by %d\n", contended); // race: contended output-differs
	return NULL;
}

int main(void) {
	sem_init(&pool, 0, 1);
	pthread_t a, b;
	pthread_create(&a, NULL, client, (void *)1L);
	pthread_create(&b, NULL, client, (void *)2L);
	pthread_join(a, NULL);
	pthread_join(b, NULL);
	return 0;
}
