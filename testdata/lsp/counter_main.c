/* Two workers count a hit each through counter.h: the count printed is 2,
 * or 1 when the increments interleave. */
#include <pthread.h>
#include <stdio.h>

#include "counter.h"

static void *worker(void *arg) {
	(void)arg;
	hit();
	return NULL;
}

int main(void) {
	pthread_t a, b;
	pthread_create(&a, NULL, worker, NULL);
	pthread_create(&b, NULL, worker, NULL);
	pthread_join(a, NULL);
	pthread_join(b, NULL);
	printf("%ld hits\n", hits);
	return 0;
}
