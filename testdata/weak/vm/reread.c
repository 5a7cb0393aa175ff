/* Write buffering: main reads x twice with no store in between, so both
 * reads return the same value whichever one the weak model picks.
 *
 * outcomes weak: 0 0 2 2
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
	for (volatile int i = 0; i < 2000; i++) {
	}
	int a = x;
	int b = x;
	printf("%d %d\n", a, b);
	pthread_join(t, NULL);
	return 0;
}
