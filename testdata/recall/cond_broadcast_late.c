/* Hidden behind condition-variable order. Two waiters wait for a start
 * broadcast; the one that wakes second finds `first_done` set and reads the
 * result buffer without the lock, while the first waiter fills it without
 * the lock. When the broadcast comes before either waits (the starter runs
 * first), neither waits and each takes the fast path that never touches the
 * buffer. */
#include <pthread.h>
#include <stdio.h>

static pthread_mutex_t m = PTHREAD_MUTEX_INITIALIZER;
static pthread_cond_t go = PTHREAD_COND_INITIALIZER;
static int started, woke;
static char result[16];

static void *waiter(void *arg) {
	(void)arg;
	pthread_mutex_lock(&m);
	if (started) {
		pthread_mutex_unlock(&m);
		return NULL;
	}
	while (!started)
		pthread_cond_wait(&go, &m);
	int order = woke++;
	pthread_mutex_unlock(&m);
	if (order == 0)
		snprintf(result, sizeof result, "first"); // race: result output-differs
	else
		printf("other said '%s'\n", result); // race: result output-differs
	return NULL;
}

static void *starter(void *arg) {
	(void)arg;
	pthread_mutex_lock(&m);
	started = 1;
	pthread_cond_broadcast(&go);
	pthread_mutex_unlock(&m);
	return NULL;
}

int main(void) {
	pthread_t s, a, b;
	pthread_create(&s, NULL, starter, NULL);
	pthread_create(&a, NULL, waiter, NULL);
	pthread_create(&b, NULL, waiter, NULL);
	pthread_join(s, NULL);
	pthread_join(a, NULL);
	pthread_join(b, NULL);
	return 0;
}
