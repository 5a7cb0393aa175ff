/* Prints values computed from a symbolic input without branching on it:
 * one path, whose output is a term. */
#include <augur.h>
#include <stdio.h>

int main(void) {
	int x = 5;
	augur_make_symbolic(&x, sizeof x, "x");
	augur_assume(x > 0 && x < 1000);
	printf("double %d\n", 2 * x);
	printf("sum %d\n", x + x);
	printf("square %d\n", x * x);
	printf("fixed %d\n", 7);
	return 0;
}
