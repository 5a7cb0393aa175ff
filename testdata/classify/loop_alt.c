/* The step of a dial that turns modulo 12 is read racily. With the
 * recorded value 1 the dial stops at 10; with the other thread's 3 it
 * visits 0, 3, 6 and 9 forever: the same states come back, a hang. */
#include <pthread.h>
#include <stdio.h>

static int step = 1;

static void *retune(void *arg) {
	(void)arg;
	step = 3; // race: step spec-violated
	return NULL;
}

static void *count(void *arg) {
	(void)arg;
	int s = step; // race: step spec-violated
	int i = 0;
	while (i != 10)
		i = (i + s) % 12;
	printf("counted to %d\n", i);
	return NULL;
}

int main(void) {
	pthread_t a, b;
	pthread_create(&b, NULL, count, NULL);
	pthread_create(&a, NULL, retune, NULL);
	pthread_join(a, NULL);
	pthread_join(b, NULL);
	return 0;
}
