/* pthread_tryjoin_np and pthread_timedjoin_np, the GNU joins that do not
 * wait for ever: a try on a thread that still runs gives EBUSY at once, a
 * timed join past its deadline ETIMEDOUT, and either gives the thread's
 * result once it has exited. A polling loop of tries ends when the thread
 * does (each failed try is a preemption point every second time, so the
 * thread it waits for runs). Prints the same natively and under augur. */
#define _GNU_SOURCE
#include <errno.h>
#include <pthread.h>
#include <semaphore.h>
#include <stdio.h>
#include <time.h>

static sem_t go;

static void *held(void *arg) {
	sem_wait(&go); /* runs until main lets it go */
	return (char *)arg + 1;
}

static void *quick(void *arg) {
	long n = 0;
	for (int i = 0; i < 1000; i++)
		n += i;
	return (void *)n;
}

static struct timespec after(long ms) {
	struct timespec ts;
	clock_gettime(CLOCK_REALTIME, &ts);
	ts.tv_nsec += (ms % 1000) * 1000000;
	ts.tv_sec += ms / 1000 + ts.tv_nsec / 1000000000;
	ts.tv_nsec %= 1000000000;
	return ts;
}

int main(void) {
	static char base[4];
	pthread_t t, q;
	void *r = NULL;
	sem_init(&go, 0, 0);
	pthread_create(&t, NULL, held, base);
	printf("try while held: %s\n", pthread_tryjoin_np(t, &r) == EBUSY ? "EBUSY" : "?");
	struct timespec soon = after(20);
	printf("timed while held: %s\n", pthread_timedjoin_np(t, &r, &soon) == ETIMEDOUT ? "ETIMEDOUT" : "?");
	sem_post(&go);
	struct timespec late = after(10000);
	int rc = pthread_timedjoin_np(t, &r, &late);
	printf("timed after release: %d, result %s\n", rc, r == base + 1 ? "right" : "wrong");

	pthread_create(&q, NULL, quick, NULL);
	long tries = 0;
	while ((rc = pthread_tryjoin_np(q, &r)) == EBUSY)
		tries++;
	printf("polled join: %d, result %ld, %s\n", rc, (long)r, tries >= 0 ? "ended" : "?");
	return 0;
}
