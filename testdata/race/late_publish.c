/* A worker publishes a value it allocated only when it runs before the
 * main thread sets the flag: round robin never publishes it, other
 * schedules do, and then main reads the value the worker wrote with
 * nothing ordering the two. The detector kept the worker's object private
 * until main's read, so the schedule that publishes it runs twice: the
 * second time with the object shadowed from birth. */
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>

static int flag;
static int *box;

static void *worker(void *arg) {
	(void)arg;
	int *p = malloc(sizeof *p);
	*p = 5; // race: value single-ordering
	if (!flag) // race: flag output-differs
		box = p; // race: box output-differs
	return NULL;
}

int main(void) {
	pthread_t t;
	pthread_create(&t, NULL, worker, NULL);
	flag = 1; // race: flag output-differs
	int *q = box; // race: box output-differs
	if (q)
		printf("%d\n", *q); // race: value single-ordering
	pthread_join(t, NULL);
	if (box)
		free(box);
	return 0;
}
