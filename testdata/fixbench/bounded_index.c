/* A slot allocator: the reserver checks the cursor against the capacity
 * and writes the slot under the mutex; the fast path does the same
 * without it, and both can pass the check for the last slot. */
#include <assert.h>
#include <pthread.h>
#include <stdio.h>

#define CAP 3

static pthread_mutex_t slots_lock = PTHREAD_MUTEX_INITIALIZER;
static int cursor = 1; // fix: atomic rejected
static int slots[CAP];

static void *reserve(void *arg) {
	pthread_mutex_lock(&slots_lock);
	if (cursor < CAP) {
		slots[cursor] = 1;
		cursor++;
	}
	pthread_mutex_unlock(&slots_lock);
	return NULL;
}

static void *fast(void *arg) {
	if (cursor < CAP) { // fix: lock slots_lock verified
		slots[cursor] = 2;
		cursor++;
	}
	assert(cursor <= CAP);
	return NULL;
}

int main(void) {
	pthread_t r1, r2, f;
	pthread_create(&r1, NULL, reserve, NULL);
	pthread_create(&r2, NULL, reserve, NULL);
	pthread_create(&f, NULL, fast, NULL);
	pthread_join(r1, NULL);
	pthread_join(r2, NULL);
	pthread_join(f, NULL);
	printf("cursor %d\n", cursor);
	return 0;
}
