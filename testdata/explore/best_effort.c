/* A racy statistics update nobody reads for decisions: workers record the
 * largest item they saw with an unlocked check-then-set; the result is
 * only logged to a counter main does not print.
 *
 * expect: no harm
 */
#include <pthread.h>
#include <stdio.h>

static int largest;
static int items[2][4] = {{3, 9, 2, 7}, {8, 1, 6, 4}};

static void *scan(void *arg) {
	int *mine = items[(long)arg];
	for (int i = 0; i < 4; i++)
		if (mine[i] > largest)
			largest = mine[i];
	return 0;
}

int main(void) {
	pthread_t a, b;
	pthread_create(&a, 0, scan, (void *)0);
	pthread_create(&b, 0, scan, (void *)1);
	pthread_join(a, 0);
	pthread_join(b, 0);
	puts("scanned");
	return 0;
}
