/* Hidden behind a narrow input, and harmful: the two threads share an
 * element of the table only when the index read from the input maps both
 * to slot 2, and then the second one's bounds check races with the
 * first's update of the count. */
#include <assert.h>
#include <pthread.h>
#include <stdio.h>

extern int __VERIFIER_nondet_int(void);

static int table[4];
static int key;

static void *adder(void *arg) {
	(void)arg;
	int i = key & 3;
	table[i] += 1; // race: cell spec-violated
	return NULL;
}

static void *checker(void *arg) {
	(void)arg;
	if (key == 6) {
		int v = table[2]; // race: cell spec-violated
		assert(v == 0);
	}
	return NULL;
}

int main(void) {
	key = __VERIFIER_nondet_int();
	pthread_t a, c;
	pthread_create(&c, NULL, checker, NULL);
	pthread_create(&a, NULL, adder, NULL);
	pthread_join(a, NULL);
	pthread_join(c, NULL);
	printf("%d %d %d %d\n", table[0], table[1], table[2], table[3]);
	return 0;
}
