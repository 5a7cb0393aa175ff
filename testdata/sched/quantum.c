/* Two ways of using a lock that a schedule must serve both: four threads
 * that take a mutex for every addition (a lock every few instructions), and
 * a consumer that polls a one-slot mailbox under the mutex without
 * sleeping while a producer fills it, item by item. The first wants a
 * thread to keep the processor through locks that do not wait; the second
 * needs the producer to run soon after the consumer starts polling, or
 * every hand-over costs a whole time slice. The output does not depend on
 * the schedule. */
#include <pthread.h>
#include <stdio.h>

#define ADDERS 4
#define ADDS 20000
#define ITEMS 2000

static pthread_mutex_t mu = PTHREAD_MUTEX_INITIALIZER;
static long total;
static int mailbox, full;

static void *adder(void *arg) {
	long id = (long)arg;
	for (long i = id; i < ADDS; i += ADDERS) {
		pthread_mutex_lock(&mu);
		total += i;
		pthread_mutex_unlock(&mu);
	}
	return NULL;
}

static void *producer(void *arg) {
	(void)arg;
	for (int i = 1; i <= ITEMS;) {
		pthread_mutex_lock(&mu);
		if (!full) {
			mailbox = i++;
			full = 1;
		}
		pthread_mutex_unlock(&mu);
	}
	return NULL;
}

int main(void) {
	pthread_t t[ADDERS], p;
	for (long i = 0; i < ADDERS; i++)
		pthread_create(&t[i], NULL, adder, (void *)i);
	for (int i = 0; i < ADDERS; i++)
		pthread_join(t[i], NULL);
	printf("total %ld\n", total);

	pthread_create(&p, NULL, producer, NULL);
	long sum = 0;
	for (int got = 0; got < ITEMS;) {
		pthread_mutex_lock(&mu);
		if (full) {
			sum += mailbox;
			full = 0;
			got++;
		}
		pthread_mutex_unlock(&mu);
	}
	pthread_join(p, NULL);
	printf("received %d items, sum %ld\n", ITEMS, sum);
	return 0;
}
