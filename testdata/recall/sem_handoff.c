/* Hidden behind semaphore order. The worker posts `slots` when it has
 * consumed an item; the main thread, when it finds no slot free
 * (sem_trywait fails), bumps `stalls` outside any lock, which the worker
 * also bumps after its post. When the worker posts before main tries, main
 * never stalls. */
#include <pthread.h>
#include <semaphore.h>
#include <stdio.h>

static sem_t slots;
static int stalls;

static void *worker(void *arg) {
	(void)arg;
	sem_post(&slots);
	stalls += 10; // race: stalls output-differs
	return NULL;
}

int main(void) {
	pthread_t w;
	sem_init(&slots, 0, 0);
	pthread_create(&w, NULL, worker, NULL);
	if (sem_trywait(&slots) != 0) {
		stalls++; // race: stalls output-differs
		sem_wait(&slots);
	}
	pthread_join(w, NULL);
	printf("stalls %d\n", stalls);
	return 0;
}
