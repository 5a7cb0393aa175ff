/* A sequence lock whose reader checks the sequence before reading but
 * forgets to check it again after: a write between the reader's two
 * loads goes unnoticed and the reader returns a torn position.
 *
 * expect: assert (the line marked `bug:`)
 */
#include <assert.h>
#include <pthread.h>

static unsigned seq;
static int x, y; /* invariant: x + y == 100 */

static void *writer(void *arg) {
	(void)arg;
	for (int i = 1; i <= 3; i++) {
		__atomic_fetch_add(&seq, 1, __ATOMIC_SEQ_CST);
		x = 50 + i;
		y = 50 - i;
		__atomic_fetch_add(&seq, 1, __ATOMIC_SEQ_CST);
	}
	return 0;
}

static void *reader(void *arg) {
	(void)arg;
	for (int i = 0; i < 3; i++) {
		unsigned s;
		do
			s = __atomic_load_n(&seq, __ATOMIC_SEQ_CST);
		while (s & 1);
		int a = x;
		int b = y;
		assert(a + b == 100); // bug: assert
	}
	return 0;
}

int main(void) {
	x = 50;
	y = 50;
	pthread_t w, r;
	pthread_create(&r, 0, reader, 0);
	pthread_create(&w, 0, writer, 0);
	pthread_join(w, 0);
	pthread_join(r, 0);
	return 0;
}
