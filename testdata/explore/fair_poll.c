/* A consumer polls a flag with usleep until the producer, after a long
 * computation, raises it. A schedule that holds the producer back makes
 * the consumer poll for a long time, but the producer would end the loop
 * as soon as it runs: this is not a hang.
 *
 * expect: no harm
 */
#include <pthread.h>
#include <stdio.h>
#include <unistd.h>

static volatile int ready;
static long answer;

static void *producer(void *arg) {
	(void)arg;
	long s = 0;
	for (long i = 0; i < 20000; i++)
		s += i % 7;
	answer = s;
	ready = 1;
	return 0;
}

int main(void) {
	pthread_t p;
	pthread_create(&p, 0, producer, 0);
	while (!ready)
		usleep(100);
	pthread_join(p, 0);
	printf("answer %ld\n", answer);
	return 0;
}
