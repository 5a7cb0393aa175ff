/* One unprotected counter, bumped by the same statement from three
 * threads that reach it through different functions: each pair of call
 * paths is a race of its own (a race is its two accesses with their call
 * stacks), all between the same read and write of hits. The editor shows
 * the read once and the write once, each standing for the others.
 * Expected: the races below, harmless (every order prints 1). */
#include <pthread.h>
#include <stdio.h>

static int hits;

static void bump(void) {
	hits = hits + 1; // race: hits k-witness-harmless
}

static void *reader(void *arg) {
	bump();
	return arg;
}

static void *writer(void *arg) {
	bump();
	return arg;
}

static void *logger(void *arg) {
	bump();
	return arg;
}

int main(void) {
	pthread_t a, b, c;
	pthread_create(&a, NULL, reader, NULL);
	pthread_create(&b, NULL, writer, NULL);
	pthread_create(&c, NULL, logger, NULL);
	pthread_join(a, NULL);
	pthread_join(b, NULL);
	pthread_join(c, NULL);
	printf("%d\n", hits > 0);
	return 0;
}
