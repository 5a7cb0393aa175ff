/* A once-only initialization guarded by a plain flag: both threads can
 * see it clear and both run the initializer, which must run once.
 *
 * expect: assert (the line marked `bug:`)
 */
#include <assert.h>
#include <pthread.h>

static int initialized;
static int init_runs;

static void init_subsystem(void) {
	init_runs++;
	assert(init_runs == 1); // bug: assert
}

static void *client(void *arg) {
	(void)arg;
	if (!initialized) {
		init_subsystem();
		initialized = 1;
	}
	return 0;
}

int main(void) {
	pthread_t a, b;
	pthread_create(&a, 0, client, 0);
	pthread_create(&b, 0, client, 0);
	pthread_join(a, 0);
	pthread_join(b, 0);
	return 0;
}
