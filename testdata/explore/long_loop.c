/* A race early, then a long computation that ends: exhausting the
 * instruction budget on it is a limit of the analysis, never a hang.
 *
 * expect: no harm
 */
#include <pthread.h>
#include <stdio.h>

static int started;

static void *crunch(void *arg) {
	unsigned long s = (unsigned long)arg;
	started = 1;
	for (unsigned long i = 0; i < 30000000UL; i++)
		s = s * 6364136223846793005UL + i;
	return (void *)s;
}

int main(void) {
	pthread_t a, b;
	void *ra, *rb;
	pthread_create(&a, 0, crunch, (void *)1);
	pthread_create(&b, 0, crunch, (void *)2);
	pthread_join(a, &ra);
	pthread_join(b, &rb);
	printf("%d %lx\n", started, (unsigned long)ra ^ (unsigned long)rb);
	return 0;
}
