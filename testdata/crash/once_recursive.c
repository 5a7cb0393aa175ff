// expect: deadlock "all 1 live threads are blocked" line 0
/* A pthread_once routine that calls pthread_once on its own control waits
 * for itself: glibc's never returns. It is not the routine's return,
 * which executes the outer call again at the depth it was made at. */
#include <pthread.h>
#include <stdio.h>

static pthread_once_t once = PTHREAD_ONCE_INIT;

static void init(void) {
	puts("init");
	pthread_once(&once, init);
}

int main(void) {
	pthread_once(&once, init);
	puts("unreachable");
	return 0;
}
