/* Publication through fences: the writer fills a record, issues a release
 * fence and sets a flag with a relaxed store; the reader spins on the flag
 * with relaxed loads and issues an acquire fence before reading the
 * record. The fences order the plain accesses, so there is no data race;
 * a spinlock built from an atomic exchange loop guards a counter too. */
#include <pthread.h>
#include <stdatomic.h>
#include <stdio.h>

static struct {
	int id;
	char name[16];
} record;
static atomic_int ready;
static atomic_flag lock = ATOMIC_FLAG_INIT;
static long counter;

static void *writer(void *arg) {
	record.id = 7;
	snprintf(record.name, sizeof record.name, "seven");
	atomic_thread_fence(memory_order_release);
	atomic_store_explicit(&ready, 1, memory_order_relaxed);
	return NULL;
}

static void *bump(void *arg) {
	for (int i = 0; i < 100; i++) {
		while (atomic_flag_test_and_set_explicit(&lock, memory_order_acquire))
			;
		counter++;
		atomic_flag_clear_explicit(&lock, memory_order_release);
	}
	return NULL;
}

int main(void) {
	pthread_t w, a, b;
	pthread_create(&w, NULL, writer, NULL);
	while (!atomic_load_explicit(&ready, memory_order_relaxed))
		;
	atomic_thread_fence(memory_order_acquire);
	printf("record %d %s\n", record.id, record.name);
	pthread_join(w, NULL);
	pthread_create(&a, NULL, bump, NULL);
	pthread_create(&b, NULL, bump, NULL);
	pthread_join(a, NULL);
	pthread_join(b, NULL);
	printf("counter %ld\n", counter);
	return 0;
}
