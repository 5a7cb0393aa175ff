/* Reads a command line from standard input; only "rm -rf" reaches the
 * failing branch. */
// expect: --sym-stdin 8: assert "dangerous command" stdin rm -rf
#include <augur.h>
#include <stdio.h>
#include <string.h>

int main(void) {
	char line[16];
	if (!fgets(line, sizeof line, stdin))
		return 1;
	if (strncmp(line, "rm -rf", 6) == 0)
		augur_assert(0, "dangerous command");
	return 0;
}
