/* The reader may see the old or the new timeout; any positive value makes
 * it take the same branch, so the output is the same. */
#include <pthread.h>
#include <stdio.h>

static int timeout_ms = 100;

static void *tuner(void *arg) {
	(void)arg;
	timeout_ms = 250; // race: timeout k-witness-harmless
	return NULL;
}

static void *client(void *arg) {
	(void)arg;
	int t = timeout_ms; // race: timeout k-witness-harmless // pattern: all-values-valid
	puts(t > 0 ? "waiting with a timeout" : "waiting forever");
	return NULL;
}

int main(void) {
	pthread_t a, b;
	pthread_create(&b, NULL, client, NULL);
	pthread_create(&a, NULL, tuner, NULL);
	pthread_join(a, NULL);
	pthread_join(b, NULL);
	return 0;
}
