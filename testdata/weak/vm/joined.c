/* Joining the writer orders its store before main's read: nothing older is
 * visible, so the weak model reads exactly what sequential consistency
 * does, and forks nothing.
 *
 * outcomes weak: 2
 */
#include <pthread.h>
#include <stdio.h>

static int x;

static void *writer(void *arg) {
	(void)arg;
	x = 2;
	return NULL;
}

int main(void) {
	pthread_t t;
	pthread_create(&t, NULL, writer, NULL);
	pthread_join(t, NULL);
	printf("%d\n", x);
	return 0;
}
