// expect: --sym-stdin 6: assert "in the window" stdin 100
/* A line read with fgets and parsed with sscanf, as most programs that
 * read numbers from a terminal do: a number inside a narrow window fails
 * an assertion. sscanf keeps the line's digits symbolic, as scanf does on
 * a stream, so the exploration reaches the window from symbolic bytes
 * alone, and the failure replays on the standard input it generated. */
#include <assert.h>
#include <stdio.h>

int main(void) {
	char line[32];
	int n = 0;
	if (fgets(line, sizeof line, stdin) == NULL)
		return 1;
	if (sscanf(line, "%d", &n) != 1)
		return 2;
	if (n > 1000 && n < 1010)
		assert(!"the number is in the window");
	printf("n=%d\n", n);
	return 0;
}
