/* A worker reads the clock several times and keeps its last reading;
 * main reads the clock after joining it and prints the time elapsed since
 * the worker's reading. Under the steady clock of classification (each
 * thread's reads advance its own view a microsecond at a time), a joiner
 * must still never see a time before the joined thread's last reading:
 * the elapsed time printed is never negative (ocean printed
 * 18446744073709551613 microseconds). */
#include <pthread.h>
#include <stdio.h>
#include <time.h>

static struct timespec last;

static void *worker(void *arg) {
	(void)arg;
	for (int i = 0; i < 5; i++)
		clock_gettime(CLOCK_MONOTONIC, &last);
	return NULL;
}

int main(void) {
	pthread_t t;
	pthread_create(&t, NULL, worker, NULL);
	pthread_join(t, NULL);
	struct timespec now;
	clock_gettime(CLOCK_MONOTONIC, &now);
	long long ns = (now.tv_sec - last.tv_sec) * 1000000000LL + (now.tv_nsec - last.tv_nsec);
	printf("%s\n", ns >= 0 ? "forward" : "backward");
	return 0;
}
