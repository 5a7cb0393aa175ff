// args: w
/* A reporter records an event in a table of N slots at index `next`,
 * which a worker advances under a mutex the reporter does not take. The
 * reporter records only in r mode (the first argument starts with r). It
 * checks next < N and then indexes with next, reading it twice.
 *
 * check: spec-violated. When the check reads N-1 before the worker's
 * increment and the increment lands before the use, the use writes
 * table[N], past the end.
 * use: spec-violated. The increment before the use's read (after the check
 * passed) is that out-of-bounds write.
 * Both need the input r and a thread switch between the check and the
 * use: the seed w never reads next outside the lock. */
#include <pthread.h>
#include <stdio.h>

#define N 4
static int table[N];
static int next = N - 1;
static pthread_mutex_t mu = PTHREAD_MUTEX_INITIALIZER;

static void *worker(void *arg) {
	(void)arg;
	pthread_mutex_lock(&mu);
	next = next + 1; // race: check spec-violated // race: use spec-violated
	pthread_mutex_unlock(&mu);
	return NULL;
}

int main(int argc, char **argv) {
	pthread_t t;
	pthread_create(&t, NULL, worker, NULL);
	if (argc > 1 && argv[1][0] == 'r') {
		if (next < N) // race: check spec-violated
			table[next] = 7; // race: use spec-violated
	}
	pthread_join(t, NULL);
	printf("%d %d\n", table[0], next);
	return 0;
}
