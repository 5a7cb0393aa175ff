/* The paper's no-sync-bug microbenchmark: as no_sync.c, but main crashes
 * on the value pair only the weak model allows: y == 1 (work0's second
 * store) with x == 0 (before either store to x).
 *
 * expect sc: no race is spec-violated
 * expect weak: spec-violated (null pointer write)
 */
#include <pthread.h>
#include <stdio.h>

static int x, y;

static void *work0(void *arg) {
	(void)arg;
	x = 2;
	y = 1;
	return NULL;
}

static void *work1(void *arg) {
	(void)arg;
	x = 2;
	return NULL;
}

int main(void) {
	pthread_t t0, t1;
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
