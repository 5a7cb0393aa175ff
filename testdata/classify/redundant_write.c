/* Both threads store the same value: whichever order, the same result. */
#include <pthread.h>
#include <stdio.h>

static int initialized;

static void *setup(void *arg) {
	(void)arg;
	initialized = 1; // race: redundant k-witness-harmless // pattern: redundant-write
	return NULL;
}

int main(void) {
	pthread_t a, b;
	pthread_create(&a, NULL, setup, NULL);
	pthread_create(&b, NULL, setup, NULL);
	pthread_join(a, NULL);
	pthread_join(b, NULL);
	printf("initialized %d\n", initialized);
	return 0;
}
