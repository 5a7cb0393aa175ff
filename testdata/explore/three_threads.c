/* A bug of depth three: the failure needs the stager to run between the
 * committer's check and its use, and the resetter to run before that
 * check, an order that takes two switches at plain accesses.
 *
 * expect: assert (the line marked `bug:`)
 */
#include <assert.h>
#include <pthread.h>

static int stage = 1, limit = 10;

static void *committer(void *arg) {
	(void)arg;
	if (stage == 0) {
		int l = limit;
		assert(l == 0); // bug: assert
	}
	return 0;
}

static void *resetter(void *arg) {
	(void)arg;
	stage = 0;
	return 0;
}

static void *stager(void *arg) {
	(void)arg;
	limit = 20;
	stage = 2;
	limit = 0;
	return 0;
}

int main(void) {
	pthread_t c, r, s;
	pthread_create(&s, 0, stager, 0);
	pthread_create(&c, 0, committer, 0);
	pthread_create(&r, 0, resetter, 0);
	pthread_join(c, 0);
	pthread_join(r, 0);
	pthread_join(s, 0);
	return 0;
}
