/* Never ends: nothing sets stop, the loop comes back to the same state,
 * and the analysis reports a hang on it. */
#include <pthread.h>

static volatile int stop;

static void *spin(void *arg) {
	(void)arg;
	while (!stop) {
	}
	return NULL;
}

int main(void) {
	pthread_t t;
	pthread_create(&t, NULL, spin, NULL);
	pthread_join(t, NULL);
	return 0;
}
