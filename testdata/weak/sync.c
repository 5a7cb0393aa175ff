/* The paper's sync microbenchmark: both threads store the same value to x,
 * and main reads it only after joining them. The only race is the two
 * identical stores: harmless under either model, and main always prints 2
 * (the weak model has nothing older to offer: the joins order both stores
 * before the read).
 *
 * race: NAME CATEGORY-UNDER-SC CATEGORY-UNDER-WEAK
 * outputs sc: 2
 * outputs weak: 2
 */
#include <pthread.h>
#include <stdio.h>

static int x;

static void *work(void *arg) {
	(void)arg;
	x = 2; // race: same k-witness-harmless k-witness-harmless
	return NULL;
}

int main(void) {
	pthread_t t0, t1;
	pthread_create(&t0, NULL, work, NULL);
	pthread_create(&t1, NULL, work, NULL);
	pthread_join(t0, NULL);
	pthread_join(t1, NULL);
	printf("%d\n", x);
	return 0;
}
