/* Never ends: the analysis stops it with its instruction budget and
 * reports a hang on the loop. */
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
