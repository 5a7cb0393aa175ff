/* A pool checked before it is locked: a client reads the pool's stopping
 * flag, then locks the pool to borrow its connection. The stopper raises
 * the flag and, under the lock, closes the connection. When the stopper
 * runs in whole between the client's check and its lock, the client
 * borrows a closed connection. No access of the client's, between the
 * check and the lock, is a point of its own: only a switch right after
 * the read of the flag reaches it. At the points before accesses and at
 * the locks alone the program has so few schedules that the bounded
 * enumeration ran every one in its first round, said so, and left no
 * schedule to PCT, which switched after reads: the assert was missed.
 *
 * expect: assert (the line marked `bug:`)
 */
#include <assert.h>
#include <pthread.h>

static pthread_mutex_t pool_lock = PTHREAD_MUTEX_INITIALIZER;
static int stopping;
static int conn_open = 1;

static void *stopper(void *arg) {
	stopping = 1;
	pthread_mutex_lock(&pool_lock);
	conn_open = 0;
	pthread_mutex_unlock(&pool_lock);
	return arg;
}

int main(void) {
	pthread_t t;
	pthread_create(&t, NULL, stopper, NULL);
	if (!stopping) {
		pthread_mutex_lock(&pool_lock);
		int usable = conn_open;
		pthread_mutex_unlock(&pool_lock);
		assert(usable); // bug: assert
	}
	pthread_join(t, NULL);
	return 0;
}
