/* A checker reads a pair of fields that a setter writes one after the
 * other, without a lock: the checker sees a torn pair only when it runs
 * between the setter's two stores, a switch between plain accesses.
 *
 * expect: assert (the line marked `bug:`)
 */
#include <assert.h>
#include <pthread.h>

static int lo, hi; /* invariant: hi == lo + 1, or both 0 */

static void *setter(void *arg) {
	(void)arg;
	for (int i = 1; i <= 3; i++) {
		lo = i;    
		hi = i + 1;
	}
	return 0;
}

static void *checker(void *arg) {
	(void)arg;
	for (int i = 0; i < 3; i++) {
		int l = lo;
		int h = hi;
		assert(h == 0 || h == l + 1); // bug: assert
	}
	return 0;
}

int main(void) {
	pthread_t a, b;
	pthread_create(&a, 0, setter, 0);
	pthread_create(&b, 0, checker, 0);
	pthread_join(a, 0);
	pthread_join(b, 0);
	return 0;
}
