// args: ab
/* A tuner thread counts the '+' signs of its argument and publishes the
 * count as a verbosity level, which main reads as soon as the tuner is
 * started and prints as a limit from a table. How far the tuner runs
 * before its write depends on the input, so on an input with a '+' the
 * race is at another instruction count than on the seed's.
 *
 * level: output-differs. With a '+' in the argument, main prints 10 when
 * it reads before the tuner's write and 20 after. The seed "ab" counts 0:
 * both orders print 10. */
#include <pthread.h>
#include <stdio.h>

static int level;
static const int limits[3] = {10, 20, 30};

static void *tuner(void *arg) {
	const char *s = arg;
	int n = 0;
	for (; *s; s++)
		if (*s == '+')
			n++;
	level = n; // race: level output-differs
	return NULL;
}

int main(int argc, char **argv) {
	pthread_t t;
	pthread_create(&t, NULL, tuner, argc > 1 ? argv[1] : "");
	int l = level; // race: level output-differs
	printf("limit %d\n", limits[l]);
	pthread_join(t, NULL);
	return 0;
}
