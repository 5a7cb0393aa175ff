/* pthread_once routines that call pthread_once on other controls, from
 * three threads at once: the inner routine returns first, then the outer
 * one, and each runs exactly once. A routine that ran another's would
 * leave its own control "running" and block its thread forever. */
#include <pthread.h>
#include <stdio.h>

static pthread_once_t outer = PTHREAD_ONCE_INIT, inner = PTHREAD_ONCE_INIT, innermost = PTHREAD_ONCE_INIT;
static int outer_runs, inner_runs, innermost_runs;

static void init_innermost(void) { innermost_runs++; }

static void init_inner(void) {
	inner_runs++;
	pthread_once(&innermost, init_innermost);
}

static void init_outer(void) {
	outer_runs++;
	pthread_once(&inner, init_inner);
	pthread_once(&innermost, init_innermost); /* done already: returns at once */
}

static void *worker(void *arg) {
	(void)arg;
	pthread_once(&outer, init_outer);
	pthread_once(&inner, init_inner);
	return NULL;
}

int main(void) {
	pthread_t t[3];
	for (int i = 0; i < 3; i++)
		pthread_create(&t[i], NULL, worker, NULL);
	for (int i = 0; i < 3; i++)
		pthread_join(t[i], NULL);
	printf("outer %d inner %d innermost %d\n", outer_runs, inner_runs, innermost_runs);
	return 0;
}
