/* Two threads raise a shared maximum with a check-then-act that takes no
 * lock, and main prints it.
 *
 * check: output-differs. When the thread with 9 checks before the thread
 * with 5 writes, and writes before it, the 5 can overwrite the 9: main
 * prints 5 instead of 9.
 * store: output-differs. The two writes in the other order leave 5. */
#include <pthread.h>
#include <stdio.h>

static int best;

static void *offer(void *arg) {
	int v = (int)(long)arg;
	if (v > best) // race: check output-differs
		best = v; // race: check output-differs // race: store output-differs
	return NULL;
}

int main(void) {
	pthread_t a, b;
	pthread_create(&a, NULL, offer, (void *)5L);
	pthread_create(&b, NULL, offer, (void *)9L);
	pthread_join(a, NULL);
	pthread_join(b, NULL);
	printf("best %d\n", best);
	return 0;
}
