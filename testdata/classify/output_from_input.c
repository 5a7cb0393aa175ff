/* Figure 8's situation: the output depends on the input, not on the race
 * (two threads store the same mode). Compared as values, two runs could
 * print different numbers for different inputs; compared as terms under
 * their constraints, both orders print 2*x: harmless. */
#include <augur.h>
#include <pthread.h>
#include <stdio.h>

static int mode;
static int x = 21;

static void *configure(void *arg) {
	(void)arg;
	mode = 2; // race: mode k-witness-harmless // pattern: redundant-write
	return NULL;
}

int main(void) {
	augur_make_symbolic(&x, sizeof x, "x");
	augur_assume(x > 0 && x < 1000);
	pthread_t a, b;
	pthread_create(&a, NULL, configure, NULL);
	pthread_create(&b, NULL, configure, NULL);
	pthread_join(a, NULL);
	pthread_join(b, NULL);
	printf("%d\n", x * mode);
	return 0;
}
