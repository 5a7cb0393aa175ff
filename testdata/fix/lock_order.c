/* Two accounts, each with its lock; a transfer takes from's lock, then
 * to's. The audit reads from.total holding only to's lock. Taking
 * from's lock there too, inside to's, would take the two locks in the
 * opposite order to the transfer: a deadlock. Taking to's lock around
 * the transfer's update instead keeps the order. */
#include <pthread.h>
#include <stdio.h>

static pthread_mutex_t from_lock = PTHREAD_MUTEX_INITIALIZER;
static pthread_mutex_t to_lock = PTHREAD_MUTEX_INITIALIZER;
static long moved, received;

static void *transfer(void *arg) {
	pthread_mutex_lock(&from_lock);
	moved += 7; // race: moved // fix: lock to_lock verified
	pthread_mutex_lock(&to_lock);
	received += 7;
	pthread_mutex_unlock(&to_lock);
	pthread_mutex_unlock(&from_lock);
	return NULL;
}

static void *audit(void *arg) {
	pthread_mutex_lock(&to_lock);
	moved += 1; // fix: lock from_lock rejected
	pthread_mutex_unlock(&to_lock);
	return NULL;
}

int main(void) {
	pthread_t t, a;
	pthread_create(&t, NULL, transfer, NULL);
	pthread_create(&a, NULL, audit, NULL);
	pthread_join(t, NULL);
	pthread_join(a, NULL);
	printf("moved %ld received %ld\n", moved, received);
	return 0;
}
