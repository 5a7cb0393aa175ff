/* Every store of the second loop goes to an address the input chooses,
 * and the first loop branches on every input byte: unbounded, this asks
 * the solver at every store of every one of 16 paths. Under a solver
 * budget the paths past it go on along one input each, without forking,
 * and each path's inputs still take it to the same output: the input's
 * bytes, read again after the path is pinned, included. */
#include <stdio.h>

void augur_make_symbolic(void *, unsigned long, const char *);

static int table[256];

int main(void) {
	unsigned char in[4];
	augur_make_symbolic(in, sizeof in, "in");
	int high = 0;
	for (int i = 0; i < 4; i++)
		if (in[i] > 100)
			high++;
	for (int k = 0; k < 200; k++)
		table[(in[0] + k) & 255] += k;
	long sum = 0;
	for (int k = 0; k < 256; k++)
		sum += table[k] * (k & 7);
	printf("high %d sum %ld bytes %d\n", high, sum, in[1] + 3 * in[2] + 7 * in[3]);
	return 0;
}
