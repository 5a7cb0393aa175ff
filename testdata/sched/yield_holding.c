/* A consumer that polls a one-slot mailbox under a mutex and, finding it
 * empty, yields before it lets go of the mutex; a producer fills the slot
 * 500 times. Correct (the yield only wastes the consumer's turn), and its
 * output does not depend on the schedule; a schedule in which the
 * consumer gives way at the yield, still holding the mutex, and then goes
 * on and takes the mutex again before the producer it woke can run, never
 * lets the producer put anything. */
#include <pthread.h>
#include <sched.h>
#include <stdio.h>

#define ITEMS 500

static pthread_mutex_t mu = PTHREAD_MUTEX_INITIALIZER;
static int slot, full;

static void *producer(void *arg) {
	(void)arg;
	for (int i = 1; i <= ITEMS;) {
		pthread_mutex_lock(&mu);
		if (!full) {
			slot = i++;
			full = 1;
		}
		pthread_mutex_unlock(&mu);
	}
	return NULL;
}

int main(void) {
	pthread_t p;
	pthread_create(&p, NULL, producer, NULL);
	long sum = 0;
	for (int got = 0; got < ITEMS;) {
		pthread_mutex_lock(&mu);
		if (full) {
			sum += slot;
			full = 0;
			got++;
		} else {
			sched_yield();
		}
		pthread_mutex_unlock(&mu);
	}
	pthread_join(p, NULL);
	printf("sum %ld\n", sum);
	return 0;
}
