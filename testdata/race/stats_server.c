/* A tiny request server: worker threads take requests from a locked queue
 * and count them per status code in a statistics array, without a lock.
 * The queue is correct; the statistics race. */
#include <pthread.h>
#include <stdio.h>

#define WORKERS 3
#define REQUESTS 12

static pthread_mutex_t queue_lock = PTHREAD_MUTEX_INITIALIZER;
static int queue[REQUESTS];
static int head, tail;
enum { TOTAL, OK, REDIRECT, CLIENT_ERROR, SERVER_ERROR };
static long stats_array[5];

static int next_request(void) {
	int r = -1;
	pthread_mutex_lock(&queue_lock);
	if (head < tail)
		r = queue[head++];
	pthread_mutex_unlock(&queue_lock);
	return r;
}

static void *req_handler(void *arg) {
	(void)arg;
	for (int r; (r = next_request()) >= 0;) {
		int status = OK + r % 4;
		stats_array[TOTAL]++, stats_array[status]++; // race: stats output-differs // race: bystatus output-differs
	}
	return NULL;
}

int main(void) {
	for (int i = 0; i < REQUESTS; i++)
		queue[tail++] = i * 7;
	pthread_t t[WORKERS];
	for (int i = 0; i < WORKERS; i++)
		pthread_create(&t[i], NULL, req_handler, NULL);
	for (int i = 0; i < WORKERS; i++)
		pthread_join(t[i], NULL);
	printf("%ld requests: ok %ld, redirect %ld, client error %ld, server error %ld\n", stats_array[TOTAL],
	       stats_array[OK], stats_array[REDIRECT], stats_array[CLIENT_ERROR], stats_array[SERVER_ERROR]);
	return 0;
}
