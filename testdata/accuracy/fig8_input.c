// args: 4
/* Figure 8 of the Portend+ paper, with the input on the command line: two
 * threads store the same mode, and main prints a figure computed from the
 * input and the mode. Compared across inputs the output varies; for any
 * one input it does not depend on the race.
 *
 * mode: k-witness-harmless (a redundant write; the output depends on the
 * input alone). */
#include <pthread.h>
#include <stdio.h>

static int mode;

static void *configure(void *arg) {
	(void)arg;
	mode = 2; // race: mode k-witness-harmless
	return NULL;
}

int main(int argc, char **argv) {
	int x = 1;
	if (argc > 1 && argv[1][0] >= '0' && argv[1][0] <= '9')
		x = argv[1][0] - '0';
	pthread_t a, b;
	pthread_create(&a, NULL, configure, NULL);
	pthread_create(&b, NULL, configure, NULL);
	pthread_join(a, NULL);
	pthread_join(b, NULL);
	if (x > 5)
		printf("big %d\n", x * mode);
	else
		printf("small %d\n", x * mode);
	return 0;
}
