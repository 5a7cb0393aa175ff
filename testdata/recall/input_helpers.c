/* Hidden behind a narrow input: the program starts a helper thread only
 * for inputs above 1000, and the helper updates the shared `cursor`
 * without the lock main uses. */
#include <pthread.h>
#include <stdio.h>

extern long __VERIFIER_nondet_long(void);

static pthread_mutex_t m = PTHREAD_MUTEX_INITIALIZER;
static long cursor;

static void *helper(void *arg) {
	long n = *(long *)arg;
	cursor = n / 2; // race: cursor output-differs
	return NULL;
}

int main(void) {
	long n = __VERIFIER_nondet_long();
	pthread_t h;
	int helped = n > 1000;
	if (helped)
		pthread_create(&h, NULL, helper, &n);
	pthread_mutex_lock(&m);
	cursor += 1; // race: cursor output-differs
	pthread_mutex_unlock(&m);
	if (helped)
		pthread_join(h, NULL);
	printf("cursor %ld\n", cursor > 1000 ? 1000L : cursor);
	return 0;
}
