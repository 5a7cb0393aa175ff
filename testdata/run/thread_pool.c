/* A thread pool: a task queue under a mutex and condition variable, worker
 * threads, results combined in order-independent ways. */
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>

#define WORKERS 3
#define TASKS 40

struct task {
	int n;
	struct task *next;
};

static struct task *queue;
static int closed;
static pthread_mutex_t mu = PTHREAD_MUTEX_INITIALIZER;
static pthread_cond_t more = PTHREAD_COND_INITIALIZER;
static long sum, xorsum;
static int done_count;

static long collatz(long n) {
	long steps = 0;
	while (n != 1) {
		n = n % 2 ? 3 * n + 1 : n / 2;
		steps++;
	}
	return steps;
}

static void *worker(void *arg) {
	(void)arg;
	for (;;) {
		pthread_mutex_lock(&mu);
		while (!queue && !closed)
			pthread_cond_wait(&more, &mu);
		struct task *t = queue;
		if (t)
			queue = t->next;
		pthread_mutex_unlock(&mu);
		if (!t)
			return NULL;
		long r = collatz(t->n);
		free(t);
		pthread_mutex_lock(&mu);
		sum += r;
		xorsum ^= r * 2654435761L;
		done_count++;
		pthread_mutex_unlock(&mu);
	}
}

int main(void) {
	pthread_t w[WORKERS];
	for (int i = 0; i < WORKERS; i++)
		pthread_create(&w[i], NULL, worker, NULL);
	for (int i = 1; i <= TASKS; i++) {
		struct task *t = malloc(sizeof *t);
		t->n = i * 3;
		pthread_mutex_lock(&mu);
		t->next = queue;
		queue = t;
		pthread_cond_signal(&more);
		pthread_mutex_unlock(&mu);
	}
	pthread_mutex_lock(&mu);
	closed = 1;
	pthread_cond_broadcast(&more);
	pthread_mutex_unlock(&mu);
	for (int i = 0; i < WORKERS; i++)
		pthread_join(w[i], NULL);
	printf("tasks %d sum %ld xor %lx\n", done_count, sum, xorsum);
	return 0;
}
