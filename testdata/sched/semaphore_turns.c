/* Two threads take turns, 2,000 rounds each, through two semaphores that
 * each waits on by spinning on sem_trywait: a ping-pong of posts. Correct,
 * and it prints "2000 2000" under every schedule; a failed sem_trywait
 * that is no preemption point lets a spinning thread hold the processor
 * for a whole time slice per hand-over, and the run looks like a hang. */
#include <pthread.h>
#include <semaphore.h>
#include <stdio.h>

#define ROUNDS 2000

static sem_t ping, pong;
static long served[2];

static void *player(void *arg) {
	(void)arg;
	for (int i = 0; i < ROUNDS; i++) {
		while (sem_trywait(&ping) != 0)
			;
		served[1]++;
		sem_post(&pong);
	}
	return NULL;
}

int main(void) {
	pthread_t t;
	sem_init(&ping, 0, 1);
	sem_init(&pong, 0, 0);
	pthread_create(&t, NULL, player, NULL);
	for (int i = 0; i < ROUNDS; i++) {
		while (sem_trywait(&pong) != 0)
			;
		served[0]++;
		sem_post(&ping);
	}
	pthread_join(t, NULL);
	printf("%ld %ld\n", served[0], served[1]);
	return 0;
}
