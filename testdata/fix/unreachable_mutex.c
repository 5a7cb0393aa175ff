/* The workers are handed the mutex and the total as two pointers; main
 * reads the total before joining them. The mutex the workers hold is
 * main's local, but nothing in the race's text connects the total to
 * it: the lock fix is refused as not reachable, and the join fix moves
 * the join up instead. */
#include <pthread.h>
#include <stdio.h>

struct job {
	pthread_mutex_t *lock;
	long *total;
};

static void *work(void *arg) {
	struct job *j = arg;
	pthread_mutex_lock(j->lock);
	*j->total += 3;
	pthread_mutex_unlock(j->lock);
	return NULL;
}

int main(void) {
	pthread_mutex_t m = PTHREAD_MUTEX_INITIALIZER;
	long total = 0;
	struct job job = {&m, &total};
	pthread_t w;
	pthread_create(&w, NULL, work, &job);
	printf("total so far %ld\n", total); // race: total // fix: lock refused // fix: join verified
	pthread_join(w, NULL);
	printf("total %ld\n", total);
	return 0;
}
