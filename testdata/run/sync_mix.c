/* Correctly synchronized in every way the recall work checks for false
 * races: data written before a barrier and read after it, a pthread_once
 * initializer, thread-local counters, a condition-variable hand-off of a
 * heap buffer, a compare-and-swap retry loop, and a release/acquire
 * publication through a fence. No schedule may report a race here, and the
 * output is the same under every schedule. */
#include <pthread.h>
#include <stdatomic.h>
#include <stdio.h>
#include <stdlib.h>

#define N 3

static pthread_barrier_t phase;
static pthread_once_t once = PTHREAD_ONCE_INIT;
static int table[N], config;
static __thread int mine;
static atomic_int total;
static int published;
static atomic_int ready;

static pthread_mutex_t m = PTHREAD_MUTEX_INITIALIZER;
static pthread_cond_t cv = PTHREAD_COND_INITIALIZER;
static int *handed;

static void init_config(void) { config = 7; }

static void add_cas(int v) {
	int old = atomic_load_explicit(&total, memory_order_relaxed);
	while (!atomic_compare_exchange_weak_explicit(&total, &old, old + v, memory_order_acq_rel, memory_order_relaxed))
		;
}

static void *worker(void *arg) {
	int id = (int)(long)arg;
	pthread_once(&once, init_config);
	table[id] = id * config; // each writes its own slot before the barrier
	mine = id;
	pthread_barrier_wait(&phase);
	int sum = 0;
	for (int i = 0; i < N; i++)
		sum += table[i]; // every slot, after the barrier
	add_cas(sum + mine);
	if (id == 0) {
		int *buf = malloc(sizeof *buf);
		*buf = sum;
		pthread_mutex_lock(&m);
		handed = buf;
		pthread_cond_signal(&cv);
		pthread_mutex_unlock(&m);
	}
	if (id == 1) {
		published = 99;
		atomic_thread_fence(memory_order_release);
		atomic_store_explicit(&ready, 1, memory_order_relaxed);
	}
	return NULL;
}

int main(void) {
	pthread_t t[N];
	pthread_barrier_init(&phase, NULL, N);
	for (long i = 0; i < N; i++)
		pthread_create(&t[i], NULL, worker, (void *)i);
	pthread_mutex_lock(&m);
	while (!handed)
		pthread_cond_wait(&cv, &m);
	int *buf = handed;
	pthread_mutex_unlock(&m);
	int got = *buf;
	free(buf);
	while (!atomic_load_explicit(&ready, memory_order_relaxed))
		;
	atomic_thread_fence(memory_order_acquire);
	int pub = published;
	for (int i = 0; i < N; i++)
		pthread_join(t[i], NULL);
	printf("handed %d published %d total %d config %d\n", got, pub, atomic_load(&total), config);
	pthread_barrier_destroy(&phase);
	return 0;
}
