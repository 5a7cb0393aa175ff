/* Producer/consumer over a 16-slot ring under one mutex and two condition
 * variables, 100,000 items by default (argv[1]): synchronization-heavy, so
 * detection's cost per synchronization shows (it was quadratic once). */
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>

#define CAP 16

static int buf[CAP];
static int head, tail, count;
static pthread_mutex_t mu = PTHREAD_MUTEX_INITIALIZER;
static pthread_cond_t notfull = PTHREAD_COND_INITIALIZER, notempty = PTHREAD_COND_INITIALIZER;
static long items;

static void *producer(void *arg) {
	(void)arg;
	for (long i = 0; i < items; i++) {
		pthread_mutex_lock(&mu);
		while (count == CAP)
			pthread_cond_wait(&notfull, &mu);
		buf[tail] = (int)i;
		tail = (tail + 1) % CAP;
		count++;
		pthread_cond_signal(&notempty);
		pthread_mutex_unlock(&mu);
	}
	return NULL;
}

static void *consumer(void *arg) {
	long sum = 0;
	for (long i = 0; i < items; i++) {
		pthread_mutex_lock(&mu);
		while (count == 0)
			pthread_cond_wait(&notempty, &mu);
		sum += buf[head];
		head = (head + 1) % CAP;
		count--;
		pthread_cond_signal(&notfull);
		pthread_mutex_unlock(&mu);
	}
	*(long *)arg = sum;
	return NULL;
}

int main(int argc, char **argv) {
	items = argc > 1 ? atol(argv[1]) : 100000;
	long sum = 0;
	pthread_t p, c;
	pthread_create(&p, NULL, producer, NULL);
	pthread_create(&c, NULL, consumer, &sum);
	pthread_join(p, NULL);
	pthread_join(c, NULL);
	printf("%ld\n", sum);
	return 0;
}
