/* Three independent two-way decisions and one implied one: exactly 8
 * feasible paths, all exiting normally. */
// expect: paths 8
#include <augur.h>
#include <stdio.h>

int main(void) {
	unsigned char in[3] = {0, 0, 0};
	augur_make_symbolic(in, sizeof in, "in");
	int score = 0;
	for (int i = 0; i < 3; i++)
		if (in[i] > 100)
			score += 1 << i;
	if (in[0] > 100 && in[0] > 50) /* the second test adds no path */
		score += 10;
	printf("%d\n", score);
	return 0;
}
