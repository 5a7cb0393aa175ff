/* SV-COMP's atomic sections: increments inside __VERIFIER_atomic_* functions
 * and between __VERIFIER_atomic_begin/end run atomically and do not race;
 * the unguarded one does. */
#include <pthread.h>
#include <stdio.h>

void __VERIFIER_atomic_begin(void);
void __VERIFIER_atomic_end(void);

static int a, b, c;

void __VERIFIER_atomic_inc(void) { a++; }

static void *worker(void *arg) {
	(void)arg;
	__VERIFIER_atomic_inc();
	__VERIFIER_atomic_begin();
	b++;
	__VERIFIER_atomic_end();
	c++; // race: c output-differs
	return NULL;
}

int main(void) {
	pthread_t t1, t2;
	pthread_create(&t1, NULL, worker, NULL);
	pthread_create(&t2, NULL, worker, NULL);
	pthread_join(t1, NULL);
	pthread_join(t2, NULL);
	printf("%d %d %d\n", a, b, c);
	return 0;
}
