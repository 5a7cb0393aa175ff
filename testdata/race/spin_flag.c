/* A child spins on a plain flag that main sets after filling data: ad-hoc
 * synchronization. Before time slices, the spinning child starved main
 * (no preemption point in the loop) and the run was reported as a hang;
 * now the child is preempted after a slice, main sets the flag, and both
 * races are found. Neither order can be reversed (the child waits for
 * main), so both are single-ordering. */
#include <pthread.h>
#include <stdio.h>

static int flag, data;

static void *child(void *arg) {
	(void)arg;
	while (!flag) // race: flag single-ordering // pattern: ad-hoc-synchronization
		;
	printf("%d\n", data); // race: data single-ordering // pattern: ad-hoc-synchronization
	return NULL;
}

int main(void) {
	pthread_t t;
	pthread_create(&t, NULL, child, NULL);
	data = 42; // race: data single-ordering
	flag = 1;  // race: flag single-ordering
	pthread_join(t, NULL);
	return 0;
}
