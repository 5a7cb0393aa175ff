/* The paper's sync-bug microbenchmark: the two writers meet at a barrier,
 * which orders nothing for main, whose reads stay unsynchronized; main
 * crashes on y == 1 with x == 0, which only the weak model allows.
 *
 * expect sc: no race is spec-violated
 * expect weak: spec-violated (null pointer write)
 */
#include <pthread.h>
#include <stdio.h>

static int x, y;
static pthread_barrier_t barr;

static void *work0(void *arg) {
	(void)arg;
	x = 2;
	y = 1;
	pthread_barrier_wait(&barr);
	return NULL;
}

static void *work1(void *arg) {
	(void)arg;
	x = 2;
	pthread_barrier_wait(&barr);
	return NULL;
}

int main(void) {
	pthread_t t0, t1;
	pthread_barrier_init(&barr, NULL, 2);
	pthread_create(&t0, NULL, work0, NULL);
	pthread_create(&t1, NULL, work1, NULL);
	int b = y;
	int a = x;
	if (b == 1 && a == 0)
		*(volatile int *)0 = 1; /* crash: impossible under sequential consistency */
	pthread_join(t0, NULL);
	pthread_join(t1, NULL);
	puts("done");
	return 0;
}
