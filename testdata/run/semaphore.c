/* Semaphores: a ping-pong between two threads, and a counting semaphore
 * limiting concurrent workers. */
#include <pthread.h>
#include <semaphore.h>
#include <stdio.h>

static sem_t ping, pong, slots;
static pthread_mutex_t mu = PTHREAD_MUTEX_INITIALIZER;
static int inside, max_inside;
static char trace[64];
static int tn;

static void *pinger(void *arg) {
	(void)arg;
	for (int i = 0; i < 5; i++) {
		sem_wait(&ping);
		trace[tn++] = 'P';
		sem_post(&pong);
	}
	return NULL;
}

static void *ponger(void *arg) {
	(void)arg;
	for (int i = 0; i < 5; i++) {
		sem_wait(&pong);
		trace[tn++] = 'o';
		sem_post(&ping);
	}
	return NULL;
}

static void *limited(void *arg) {
	(void)arg;
	sem_wait(&slots);
	pthread_mutex_lock(&mu);
	inside++;
	if (inside > max_inside)
		max_inside = inside;
	pthread_mutex_unlock(&mu);
	pthread_mutex_lock(&mu);
	inside--;
	pthread_mutex_unlock(&mu);
	sem_post(&slots);
	return NULL;
}

int main(void) {
	sem_init(&ping, 0, 1);
	sem_init(&pong, 0, 0);
	pthread_t a, b;
	pthread_create(&a, NULL, pinger, NULL);
	pthread_create(&b, NULL, ponger, NULL);
	pthread_join(a, NULL);
	pthread_join(b, NULL);
	printf("%s\n", trace);
	sem_init(&slots, 0, 2);
	pthread_t w[6];
	for (int i = 0; i < 6; i++)
		pthread_create(&w[i], NULL, limited, NULL);
	for (int i = 0; i < 6; i++)
		pthread_join(w[i], NULL);
	int v;
	sem_getvalue(&slots, &v);
	printf("max inside <= 2: %d, value %d, trywait %d\n", max_inside <= 2, v, sem_trywait(&pong));
	return 0;
}
