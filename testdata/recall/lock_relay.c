/* Hidden behind lock order, through a third thread. The first thread
 * writes `config` and then passes lock a; the relay takes a, then b; the
 * last thread takes b and reads `config`. Created in that order, every
 * acquisition comes after the previous thread's release and the chain
 * orders the write before the read; the race needs the last thread's read
 * before the chain is complete. */
#include <pthread.h>
#include <stdio.h>

static pthread_mutex_t a = PTHREAD_MUTEX_INITIALIZER, b = PTHREAD_MUTEX_INITIALIZER;
static int config, passed_a, passed_b;

static void *first(void *arg) {
	(void)arg;
	config = 42; // race: config output-differs
	pthread_mutex_lock(&a);
	passed_a = 1;
	pthread_mutex_unlock(&a);
	return NULL;
}

static void *relay(void *arg) {
	(void)arg;
	pthread_mutex_lock(&a);
	int r = passed_a;
	pthread_mutex_unlock(&a);
	pthread_mutex_lock(&b);
	passed_b = r + 1;
	pthread_mutex_unlock(&b);
	return NULL;
}

static void *last(void *arg) {
	(void)arg;
	pthread_mutex_lock(&b);
	int r = passed_b;
	pthread_mutex_unlock(&b);
	printf("relayed %d config %d\n", r > 0, config); // race: config output-differs
	return NULL;
}

int main(void) {
	pthread_t t[3];
	pthread_create(&t[0], NULL, first, NULL);
	pthread_create(&t[1], NULL, relay, NULL);
	pthread_create(&t[2], NULL, last, NULL);
	for (int i = 0; i < 3; i++)
		pthread_join(t[i], NULL);
	return 0;
}
