/* Check-then-act on a fixed pool: each thread checks that a slot is free,
 * then fills slot `used` and counts it. Two threads passing the check
 * together on the last free slot write one past the end.
 *
 * expect: crash (the line marked `bug:`)
 */
#include <pthread.h>
#include <stdlib.h>

#define CAP 3

static int *pool;
static int used = CAP - 1;

static void *add(void *arg) {
	if (used < CAP) {
		int at = used;
		used = at + 1;
		int n = used - 1;
		pool[n] = (int)(long)arg; // bug: crash
	}
	return 0;
}

int main(void) {
	pool = malloc(CAP * sizeof(int));
	pthread_t a, b;
	pthread_create(&a, 0, add, (void *)1);
	pthread_create(&b, 0, add, (void *)2);
	pthread_join(a, 0);
	pthread_join(b, 0);
	free(pool);
	return 0;
}
