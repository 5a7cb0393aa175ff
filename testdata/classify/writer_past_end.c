/* Main hands numbered blocks to two compressors through a queue, then
 * says it is done. A writer collects each block's result in order,
 * polling with usleep while the next one is not ready, and stops when it
 * has every block and main is done. Its loop test reads `done` only once
 * it has every block: if it gets there before main says it is done, it
 * goes round once more and reads the result slot one past the last.
 *
 * While main is held before its store to `done`, the writer polls for
 * results the compressors have yet to make: it waits for them, not for
 * main. Taking its polling for a spin on main called the race
 * single-ordering and hid the read past the end. */
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <unistd.h>

#define BLOCKS 3

struct result {
	int size;
	long sum;
};

static pthread_mutex_t mu = PTHREAD_MUTEX_INITIALIZER;
static pthread_cond_t ready = PTHREAD_COND_INITIALIZER;
static int queue[BLOCKS], head, tail, closed;
static struct result *results;
static int nblocks;
static pthread_mutex_t progress_mu = PTHREAD_MUTEX_INITIALIZER;
static long progress;
static int done;

static void *compressor(void *arg) {
	(void)arg;
	for (;;) {
		pthread_mutex_lock(&mu);
		while (head == tail && !closed)
			pthread_cond_wait(&ready, &mu);
		if (head == tail) {
			pthread_mutex_unlock(&mu);
			return NULL;
		}
		int b = queue[head++];
		pthread_mutex_unlock(&mu);
		long sum = 0;
		for (int i = 0; i < 30000; i++) {
			sum += (long)i * (b + 1) % 7;
			if (i % 2000 == 0) {
				pthread_mutex_lock(&progress_mu);
				progress++;
				pthread_mutex_unlock(&progress_mu);
			}
		}
		pthread_mutex_lock(&mu);
		results[b].sum = sum;
		results[b].size = 1 + (int)(sum % 5);
		pthread_mutex_unlock(&mu);
	}
}

static void *writer(void *arg) {
	(void)arg;
	long total = 0;
	int cur = 0;
	while (cur < nblocks || done == 0) { // race: done spec-violated
		pthread_mutex_lock(&mu);
		int size = results[cur].size;
		long sum = results[cur].sum;
		pthread_mutex_unlock(&mu);
		if (size == 0) {
			usleep(1000);
			continue;
		}
		total += sum;
		cur++;
	}
	printf("wrote %d blocks, %ld\n", cur, total);
	return NULL;
}

int main(void) {
	nblocks = BLOCKS;
	results = calloc(BLOCKS, sizeof *results);
	pthread_t c1, c2, w;
	pthread_create(&c1, NULL, compressor, NULL);
	pthread_create(&c2, NULL, compressor, NULL);
	pthread_create(&w, NULL, writer, NULL);
	for (int b = 0; b < BLOCKS; b++) {
		pthread_mutex_lock(&mu);
		queue[tail++] = b;
		pthread_mutex_unlock(&mu);
		pthread_cond_signal(&ready);
	}
	pthread_mutex_lock(&mu);
	closed = 1;
	pthread_mutex_unlock(&mu);
	pthread_cond_broadcast(&ready);
	done = 1; // race: done spec-violated
	pthread_join(w, NULL);
	pthread_join(c1, NULL);
	pthread_join(c2, NULL);
	free(results);
	return 0;
}
