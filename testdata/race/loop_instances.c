/* One racy statement inside a loop: one distinct race, many instances. The
 * loop counter and the array writes by each thread to its own half are not
 * races. */
#include <pthread.h>
#include <stdio.h>

static int cells[64];
static long total;

static void *fill(void *arg) {
	long half = (long)arg;
	for (int i = 0; i < 32; i++) {
		cells[half * 32 + i] = i;
		total += i; // race: total output-differs
	}
	return NULL;
}

int main(void) {
	pthread_t a, b;
	pthread_create(&a, NULL, fill, (void *)0L);
	pthread_create(&b, NULL, fill, (void *)1L);
	pthread_join(a, NULL);
	pthread_join(b, NULL);
	printf("%ld %d\n", total, cells[63]);
	return 0;
}
