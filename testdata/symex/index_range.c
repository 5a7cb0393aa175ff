/* An out-of-bounds write reachable only for one range of the input. */
// expect: crash "out of bounds global access"
#include <augur.h>

static int table[10];

int main(void) {
	int x = 3;
	augur_make_symbolic(&x, sizeof x, "x");
	if (x > 100 && x < 200)
		table[x - 95] = 1;
	return table[0];
}
