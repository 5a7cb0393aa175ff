/* Only index 7 of the table holds 42, and only 42 crashes: finding it needs
 * the index to stay symbolic through the load. */
// expect: crash "division by zero"
#include <augur.h>

static int table[10] = {3, 1, 4, 1, 5, 9, 2, 42, 6, 5};

int main(void) {
	unsigned x = 0;
	augur_make_symbolic(&x, sizeof x, "x");
	augur_assume(x < 10);
	int v = table[x];
	return 100 / (v - 42);
}
