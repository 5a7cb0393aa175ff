/* The main thread frees a buffer that a worker may still be reading: the
 * free races with the read. */
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <unistd.h>

static char *buf;

static void *worker(void *arg) {
	(void)arg;
	char c = buf[0]; // race: free spec-violated
	return (void *)(long)c;
}

int main(void) {
	buf = malloc(8);
	buf[0] = 'x';
	pthread_t t;
	pthread_create(&t, NULL, worker, NULL);
	usleep(100);
	free(buf); // race: free spec-violated
	pthread_join(t, NULL);
	puts("done");
	return 0;
}
