/* Two configuration threads each set the mode, unsynchronized, and main
 * prints the mode after both. A plain lost-last-write race.
 *
 * mode: output-differs. The mode printed is the last writer's, 1 or 2. */
#include <pthread.h>
#include <stdio.h>

static int mode;

static void *set_one(void *arg) {
	(void)arg;
	mode = 1; // race: mode output-differs
	return NULL;
}

static void *set_two(void *arg) {
	(void)arg;
	mode = 2; // race: mode output-differs
	return NULL;
}

int main(void) {
	pthread_t a, b;
	pthread_create(&a, NULL, set_one, NULL);
	pthread_create(&b, NULL, set_two, NULL);
	pthread_join(a, NULL);
	pthread_join(b, NULL);
	printf("mode %d\n", mode);
	return 0;
}
