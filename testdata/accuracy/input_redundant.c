// args: keep
/* With the argument reset (first letter r) two threads both clear a
 * shared error code to zero, which main already cleared; with the seed
 * argument they leave it alone. A race that exists only on one input,
 * and is harmless there.
 *
 * err: k-witness-harmless. Either order of the two clears leaves 0, and
 * main prints 0. */
#include <pthread.h>
#include <stdio.h>

static int err;
static int do_reset;

static void *clearer(void *arg) {
	(void)arg;
	if (do_reset)
		err = 0; // race: err k-witness-harmless
	return NULL;
}

int main(int argc, char **argv) {
	do_reset = argc > 1 && argv[1][0] == 'r';
	err = 0;
	pthread_t a, b;
	pthread_create(&a, NULL, clearer, NULL);
	pthread_create(&b, NULL, clearer, NULL);
	pthread_join(a, NULL);
	pthread_join(b, NULL);
	printf("err %d\n", err);
	return 0;
}
