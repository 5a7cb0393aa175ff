/* The program returns from main without joining its workers: a schedule
 * that lets main run to its end first never runs them, and with them
 * their race on `hits`. Round robin runs a new thread at once, so the
 * default plan sees both workers before main exits. */
#include <pthread.h>
#include <stdio.h>

static int hits;

static void *worker(void *arg) {
	(void)arg;
	hits++; // race: hits k-witness-harmless
	return NULL;
}

int main(void) {
	pthread_t a, b;
	pthread_create(&a, NULL, worker, NULL);
	pthread_create(&b, NULL, worker, NULL);
	pthread_detach(a);
	pthread_detach(b);
	puts("started");
	return 0;
}
