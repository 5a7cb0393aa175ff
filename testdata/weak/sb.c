/* Store buffering litmus test: each thread writes its variable, then reads
 * the other's. Under sequential consistency at least one thread sees the
 * other's store; under the weak model both may read the old values (0,0).
 *
 * outcomes sc: 0,1 1,0 1,1
 * outcomes weak: 0,0 0,1 1,0 1,1
 */
#include <pthread.h>
#include <stdio.h>

static int x, y;
static int r1, r2;

static void *left(void *arg) {
	(void)arg;
	x = 1;
	r1 = y;
	return NULL;
}

static void *right(void *arg) {
	(void)arg;
	y = 1;
	r2 = x;
	return NULL;
}

int main(void) {
	pthread_t a, b;
	pthread_create(&a, NULL, left, NULL);
	pthread_create(&b, NULL, right, NULL);
	pthread_join(a, NULL);
	pthread_join(b, NULL);
	printf("%d,%d\n", r1, r2);
	return 0;
}
