// args: go
/* With the argument wait (first letter w) main waits for a worker's
 * signal by spinning on a plain flag before printing the worker's answer;
 * otherwise it prints without looking at either. Synchronization built by
 * hand, on one input only.
 *
 * flag: single-ordering. main leaves its loop only after the worker's
 * write.
 * answer: single-ordering. main reads the answer only after the flag,
 * written after the answer. */
#include <pthread.h>
#include <stdio.h>

static volatile int flag;
static int answer;

static void *worker(void *arg) {
	(void)arg;
	answer = 42; // race: answer single-ordering
	flag = 1; // race: flag single-ordering
	return NULL;
}

int main(int argc, char **argv) {
	int wait = argc > 1 && argv[1][0] == 'w';
	pthread_t t;
	pthread_create(&t, NULL, worker, NULL);
	if (wait) {
		while (!flag) // race: flag single-ordering
			;
		printf("answer %d\n", answer); // race: answer single-ordering
	} else {
		printf("not waiting\n");
	}
	pthread_join(t, NULL);
	return 0;
}
