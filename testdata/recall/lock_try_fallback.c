/* Hidden behind lock order. When pthread_mutex_trylock finds the lock
 * taken, the updater falls back to a lock-free "deferred" counter; the
 * flusher drains that counter under no lock after its own locked section.
 * The fallback runs only when the updater tries while the flusher holds
 * the lock. */
#include <pthread.h>
#include <stdio.h>

static pthread_mutex_t m = PTHREAD_MUTEX_INITIALIZER;
static int total, deferred;

static void *updater(void *arg) {
	(void)arg;
	for (int i = 0; i < 4; i++) {
		if (pthread_mutex_trylock(&m) == 0) {
			total++;
			pthread_mutex_unlock(&m);
		} else {
			deferred++; // race: deferred output-differs
		}
	}
	return NULL;
}

static void *flusher(void *arg) {
	(void)arg;
	for (int i = 0; i < 4; i++) {
		pthread_mutex_lock(&m);
		total += 10;
		pthread_mutex_unlock(&m);
	}
	int d = deferred; // race: deferred output-differs
	printf("flushed %d deferred\n", d);
	return NULL;
}

int main(void) {
	pthread_t u, f;
	pthread_create(&u, NULL, updater, NULL);
	pthread_create(&f, NULL, flusher, NULL);
	pthread_join(u, NULL);
	pthread_join(f, NULL);
	return 0;
}
