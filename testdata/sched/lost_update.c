/* Two threads increment a shared counter without a lock. Updates are lost
 * only if a thread switch falls between the load and the store of count++. */
#include <pthread.h>
#include <stdio.h>

#define N 20

static int count;

static void *inc(void *arg) {
	(void)arg;
	for (int i = 0; i < N; i++)
		count++;
	return NULL;
}

int main(void) {
	pthread_t a, b;
	pthread_create(&a, NULL, inc, NULL);
	pthread_create(&b, NULL, inc, NULL);
	pthread_join(a, NULL);
	pthread_join(b, NULL);
	printf("%d\n", count);
	return 0;
}
