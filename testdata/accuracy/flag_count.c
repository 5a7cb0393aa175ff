// args: ab
/* A tuner thread counts the '+' signs of its argument, one branch per
 * character, and publishes the count as a verbosity level; main reads the
 * level as soon as the tuner is started and bumps a counter for that level
 * in a table of two. The count decides how far the tuner runs before its
 * write, so an input with more '+' signs brings it to the race at another
 * instruction than the seed's: a classification that finds the race by
 * the seed's instruction counts cannot follow the path there.
 *
 * level: spec-violated. With the argument "++" and the tuner's write
 * before main's read, main bumps hits[2], past the end of the table. The
 * seed "ab" counts 0, and both orders then read 0. */
#include <pthread.h>
#include <stdio.h>

static int level;
static int hits[2];

static void *tuner(void *arg) {
	const char *s = arg;
	int n = 0;
	for (; *s; s++)
		if (*s == '+')
			n++;
	level = n; // race: level spec-violated
	return NULL;
}

int main(int argc, char **argv) {
	pthread_t t;
	pthread_create(&t, NULL, tuner, argc > 1 ? argv[1] : "");
	int l = level; // race: level spec-violated
	hits[l]++;
	pthread_join(t, NULL);
	printf("level %d seen %d time(s)\n", l, hits[l]);
	return 0;
}
