/* A worker fills two jobs, allocated at two sites, and hands each to main
 * through a slot guarded by a mutex; main reads each job after taking it.
 * Every access is ordered, so there is no race. The detector keeps each
 * job private to the worker until main's first read, which only the mutex
 * orders after the worker's writes: it cannot vouch for the private phase
 * and learns to shadow the job's site from birth. The worker fills the
 * second job only once main has read the first, in less time than it
 * took to fill the first: the first execution goes on past the first
 * hand-off and learns both sites, so it runs again once, not once per
 * site. */
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>

struct job {
	int id;
	long sum;
};

static pthread_mutex_t m = PTHREAD_MUTEX_INITIALIZER;
static struct job *slot;
static int taken; /* how many jobs main has read */

static void hand(struct job *j) {
	pthread_mutex_lock(&m);
	slot = j;
	pthread_mutex_unlock(&m);
}

static struct job *take(void) {
	struct job *j = NULL;
	while (!j) {
		pthread_mutex_lock(&m);
		j = slot;
		slot = NULL;
		pthread_mutex_unlock(&m);
	}
	return j;
}

static long work(int n) {
	long s = 0;
	for (int i = 0; i < n; i++)
		s += i % 7;
	return s;
}

static void *worker(void *arg) {
	(void)arg;
	struct job *a = malloc(sizeof *a);
	a->id = 1;
	a->sum = work(60000);
	hand(a);
	for (int seen = 0; !seen;) { /* until main has read a */
		pthread_mutex_lock(&m);
		seen = taken == 1;
		pthread_mutex_unlock(&m);
	}
	struct job *b = malloc(sizeof *b);
	b->id = 2;
	b->sum = work(25000);
	hand(b);
	return NULL;
}

int main(void) {
	pthread_t t;
	pthread_create(&t, NULL, worker, NULL);
	long total = 0;
	for (int k = 0; k < 2; k++) {
		struct job *j = take();
		total += j->id * j->sum;
		free(j);
		pthread_mutex_lock(&m);
		taken++;
		pthread_mutex_unlock(&m);
	}
	pthread_join(t, NULL);
	printf("%ld\n", total);
	return 0;
}
