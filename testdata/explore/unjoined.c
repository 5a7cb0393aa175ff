/* A thread that is never joined writes a global main also writes after
 * a short computation: nothing orders them.
 *
 * expect: race (the lines marked `race:`)
 */
#include <pthread.h>
#include <stdio.h>

static int mode;

static void *background(void *arg) {
	(void)arg;
	mode = 2; // race: mode
	return 0;
}

int main(void) {
	pthread_t t;
	pthread_create(&t, 0, background, 0);
	pthread_detach(t);
	int s = 0;
	for (int i = 0; i < 100; i++)
		s += i;
	mode = s; // race: mode
	printf("%d\n", mode > 0);
	return 0;
}
