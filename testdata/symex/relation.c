/* The assertion fails only for inputs with 3a + b == 1000 and a > b. */
// expect: assert "assertion"
#include <assert.h>

void klee_make_symbolic(void *addr, unsigned long size, const char *name);

int main(void) {
	int a = 0, b = 0;
	klee_make_symbolic(&a, sizeof a, "a");
	klee_make_symbolic(&b, sizeof b, "b");
	if (a >= 0 && a < 1000 && b >= 0 && b < 1000)
		assert(!(3 * a + b == 1000 && a > b));
	return 0;
}
