// expect: --sym-stdin 4: assert "in the window" stdin 100
/* A number read with scanf fails an assertion only inside a narrow
 * window. Given "1234" on standard input the program passes; the
 * exploration keeps the digits it reads symbolic and explores the
 * number's other lengths, so it finds a number in the window, from a
 * given input or from symbolic bytes alone, and the failure's evidence
 * replays on that standard input. */
#include <assert.h>
#include <stdio.h>

int main(void) {
	int n = 0;
	if (scanf("%d", &n) != 1)
		return 1;
	if (n > 1000 && n < 1010)
		assert(!"the number is in the window");
	printf("n=%d\n", n);
	return 0;
}
