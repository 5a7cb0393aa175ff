// args: n
/* In summary mode (argument s) main prints the average of the samples,
 * dividing the sum by a count that a reset thread sets to zero without
 * the lock. With the seed argument n the count is never read.
 *
 * count: spec-violated. With s, the reset before main's read makes it
 * divide by zero. */
#include <pthread.h>
#include <stdio.h>

static int count = 4;
static int sum = 40;

static void *reset(void *arg) {
	(void)arg;
	count = 0; // race: count spec-violated
	return NULL;
}

int main(int argc, char **argv) {
	pthread_t t;
	pthread_create(&t, NULL, reset, NULL);
	if (argc > 1 && argv[1][0] == 's') {
		int c = count; // race: count spec-violated
		printf("average %d\n", sum / c);
	}
	pthread_join(t, NULL);
	printf("bye\n");
	return 0;
}
