// args: run
/* A worker moves a point by writing its two coordinates one after the
 * other without the lock. main reads both; in check mode (first argument
 * starting with c) it asserts that the point is on the diagonal,
 * otherwise it prints the sum.
 *
 * x: spec-violated. In check mode, main reading x before the worker's
 * write and y after it sees (0, 5): the assertion fails. On the seed
 * input the orders only change the sum printed (output-differs), so the
 * failure needs the input c and a switch between main's two reads.
 * y: spec-violated, the same way from the other end. */
#include <assert.h>
#include <pthread.h>
#include <stdio.h>

static int x, y;

static void *mover(void *arg) {
	(void)arg;
	x = 5; // race: x spec-violated
	y = 5; // race: y spec-violated
	return NULL;
}

int main(int argc, char **argv) {
	int check = argc > 1 && argv[1][0] == 'c';
	pthread_t t;
	pthread_create(&t, NULL, mover, NULL);
	int a = x; // race: x spec-violated
	int b = y; // race: y spec-violated
	if (check)
		assert(a == b);
	pthread_join(t, NULL);
	printf("%d\n", a + b);
	return 0;
}
