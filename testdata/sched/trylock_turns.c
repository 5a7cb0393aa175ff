/* Two threads take turns, 2,000 rounds each, through a turn variable
 * under a mutex that each takes by spinning on a try-lock: when it has
 * the mutex but not the turn, it lets go and tries again. Correct, and its
 * output does not depend on the schedule; a schedule that lets a spinning
 * thread hold the processor for a whole time slice per hand-over makes it
 * look like a hang. */
#include <pthread.h>
#include <stdio.h>

#define ROUNDS 2000

static pthread_mutex_t mu = PTHREAD_MUTEX_INITIALIZER;
static int turn;
static long rounds[2];

static void *player(void *arg) {
	int me = (int)(long)arg;
	for (int i = 0; i < ROUNDS;) {
		while (pthread_mutex_trylock(&mu) != 0)
			;
		if (turn == me) {
			rounds[me]++;
			turn = 1 - me;
			i++;
		}
		pthread_mutex_unlock(&mu);
	}
	return NULL;
}

int main(void) {
	pthread_t t[2];
	for (long i = 0; i < 2; i++)
		pthread_create(&t[i], NULL, player, (void *)i);
	for (int i = 0; i < 2; i++)
		pthread_join(t[i], NULL);
	printf("%ld %ld\n", rounds[0], rounds[1]);
	return 0;
}
