/* main starts the flusher, takes the table's lock, starts the stats
 * thread and returns without joining either. The flusher adds to
 * `entries` under the lock; the stats thread clears it without. Their
 * accesses are unordered only when main takes the lock before the
 * flusher does, and the flusher then runs after main releases it and
 * before main's return ends the process: a schedule must run a thread
 * that main's exit would otherwise leave unrun. Nothing is printed
 * after the race, so either order ends the same. */
#include <pthread.h>
#include <stdio.h>

static pthread_mutex_t table = PTHREAD_MUTEX_INITIALIZER;
static int entries;

static void *flusher(void *arg) {
	(void)arg;
	pthread_mutex_lock(&table);
	entries += 4; // race: entries k-witness-harmless
	pthread_mutex_unlock(&table);
	return NULL;
}

static void *stats(void *arg) {
	(void)arg;
	entries = 0; // race: entries k-witness-harmless
	return NULL;
}

int main(void) {
	pthread_t f, s;
	pthread_create(&f, NULL, flusher, NULL);
	pthread_mutex_lock(&table);
	pthread_create(&s, NULL, stats, NULL);
	pthread_detach(f);
	pthread_detach(s);
	pthread_mutex_unlock(&table);
	return 0;
}
