/* The paper's no-sync microbenchmark: two threads write shared globals
 * with no ordering while main reads them. Under sequential consistency
 * y == 1 implies x == 2 (work0 stores x first); under the weak model main
 * may see work0's store to y before its store to x, and print 0,1.
 *
 * outputs sc: 0,0 2,0 2,1
 * outputs weak: 0,0 0,1 2,0 2,1
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
	printf("%d,%d\n", a, b);
	pthread_join(t0, NULL);
	pthread_join(t1, NULL);
	return 0;
}
