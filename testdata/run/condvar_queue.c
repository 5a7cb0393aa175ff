/* A bounded queue with condition variables: two producers, two consumers. */
#include <pthread.h>
#include <stdio.h>

#define CAP 4
#define PER_PRODUCER 50

static int buf[CAP];
static int head, count;
static pthread_mutex_t mu = PTHREAD_MUTEX_INITIALIZER;
static pthread_cond_t not_full = PTHREAD_COND_INITIALIZER;
static pthread_cond_t not_empty = PTHREAD_COND_INITIALIZER;
static long consumed_sum;
static int consumed_n;

static void *producer(void *arg) {
	int base = *(int *)arg;
	for (int i = 0; i < PER_PRODUCER; i++) {
		pthread_mutex_lock(&mu);
		while (count == CAP)
			pthread_cond_wait(&not_full, &mu);
		buf[(head + count) % CAP] = base + i;
		count++;
		pthread_cond_signal(&not_empty);
		pthread_mutex_unlock(&mu);
	}
	return NULL;
}

static void *consumer(void *arg) {
	(void)arg;
	for (;;) {
		pthread_mutex_lock(&mu);
		while (count == 0 && consumed_n < 2 * PER_PRODUCER)
			pthread_cond_wait(&not_empty, &mu);
		if (consumed_n == 2 * PER_PRODUCER) {
			pthread_cond_broadcast(&not_empty);
			pthread_mutex_unlock(&mu);
			return NULL;
		}
		int v = buf[head];
		head = (head + 1) % CAP;
		count--;
		consumed_sum += v;
		consumed_n++;
		if (consumed_n == 2 * PER_PRODUCER)
			pthread_cond_broadcast(&not_empty);
		pthread_cond_signal(&not_full);
		pthread_mutex_unlock(&mu);
	}
}

int main(void) {
	pthread_t p[2], c[2];
	int bases[2] = {0, 1000};
	for (int i = 0; i < 2; i++)
		pthread_create(&c[i], NULL, consumer, NULL);
	for (int i = 0; i < 2; i++)
		pthread_create(&p[i], NULL, producer, &bases[i]);
	for (int i = 0; i < 2; i++)
		pthread_join(p[i], NULL);
	for (int i = 0; i < 2; i++)
		pthread_join(c[i], NULL);
	printf("consumed %d items, sum %ld\n", consumed_n, consumed_sum);
	return 0;
}
