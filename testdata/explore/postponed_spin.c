/* A worker spins until the main thread raises a flag, after main's own
 * critical section (the busy-wait barriers of SPLASH-2's fmm). A schedule
 * that postpones main at its lock must let it run once the worker has spun
 * a whole time slice: holding main back for ever would be a hang of the
 * schedule, not of the program, which always ends.
 *
 * expect: no harm
 */
#include <pthread.h>
#include <stdatomic.h>
#include <stdio.h>

static pthread_mutex_t m = PTHREAD_MUTEX_INITIALIZER;
static atomic_int ready;
static int from_main, from_worker;

static void *worker(void *arg) {
	(void)arg;
	pthread_mutex_lock(&m);
	from_worker = 1;
	pthread_mutex_unlock(&m);
	while (!atomic_load(&ready))
		;
	return 0;
}

int main(void) {
	pthread_t w;
	pthread_create(&w, 0, worker, 0);
	pthread_mutex_lock(&m);
	from_main = 1;
	pthread_mutex_unlock(&m);
	atomic_store(&ready, 1);
	pthread_join(w, 0);
	pthread_mutex_lock(&m);
	printf("%d %d\n", from_main, from_worker);
	pthread_mutex_unlock(&m);
	return 0;
}
