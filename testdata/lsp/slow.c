/* Long-running: two threads each add up a large series, so an analysis
 * of it is still running when a test shuts the server down. */
#include <pthread.h>
#include <stdio.h>

static unsigned long sums[2];

static void *work(void *arg) {
	long id = (long)arg;
	unsigned long s = 0;
	for (unsigned long i = 0; i < 400000000UL; i++)
		s += i ^ (unsigned long)id;
	sums[id] = s;
	return NULL;
}

int main(void) {
	pthread_t a, b;
	pthread_create(&a, NULL, work, (void *)0L);
	pthread_create(&b, NULL, work, (void *)1L);
	pthread_join(a, NULL);
	pthread_join(b, NULL);
	printf("%lu\n", sums[0] + sums[1]);
	return 0;
}
