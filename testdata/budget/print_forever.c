/* Prints for ever. The output goes to the terminal as it is written and
 * is not kept (augur run), or only its first megabyte is kept with a
 * digest of the rest (augur analyze), so memory stays flat however long
 * it runs.
 *
 * augur run --max-instructions 3000000 => exit 124: instruction budget of 3000000 exhausted; rss < 300MiB
 * augur analyze --max-instructions 4000000 --detect-only => exit 4: instruction budget of 4000000 exhausted while the program was still running; rss < 400MiB
 */
#include <stdio.h>

int main(void) {
	for (long i = 0;; i++)
		printf("line %ld of output that never ends\n", i); /* budget: instructions */
}
