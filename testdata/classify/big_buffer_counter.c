/* A lost update in a program that holds a 4 MiB buffer: the two orders
 * of the increments print 1 or 2. Under a memory budget of less than
 * twice what the pre-race checkpoint holds, the replay that checks the
 * verdict runs after the checkpoint is let go (classify.tightMemory),
 * and must decide as it does beside it. */
#include <pthread.h>
#include <stdio.h>
#include <string.h>

#define SIZE (4 << 20)

static char buf[SIZE];
static int counter;

static void *work(void *arg) {
	counter++; // race: counter output-differs
	buf[(long)arg * 4096] = 1;
	return NULL;
}

int main(void) {
	memset(buf, 7, SIZE);
	pthread_t t[2];
	for (long i = 0; i < 2; i++)
		pthread_create(&t[i], NULL, work, (void *)i);
	for (int i = 0; i < 2; i++)
		pthread_join(t[i], NULL);
	printf("%d\n", counter);
	return 0;
}
