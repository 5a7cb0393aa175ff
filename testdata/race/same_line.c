/* Two races on one line, on two objects, and two on one line on two fields
 * of one struct: each is a race of its own, with an identity of its own.
 * (augur once reported one race per line, and the second was lost.) */
#include <pthread.h>
#include <stdio.h>

static int a, b;
static struct {
	int f, g;
} s;

static void *worker(void *arg) {
	(void)arg;
	a++; b++; // race: a output-differs // race: b output-differs
	s.f++; s.g++; // race: f output-differs // race: g output-differs
	return NULL;
}

int main(void) {
	pthread_t t1, t2;
	pthread_create(&t1, NULL, worker, NULL);
	pthread_create(&t2, NULL, worker, NULL);
	pthread_join(t1, NULL);
	pthread_join(t2, NULL);
	printf("%d %d %d %d\n", a, b, s.f, s.g);
	return 0;
}
