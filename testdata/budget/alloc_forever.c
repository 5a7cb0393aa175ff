/* Allocates and fills a megabyte at a time, for ever: the memory budget
 * stops it at the allocation that would pass the budget, in the CLI and in
 * the language server, and augur's own memory stays near the budget.
 *
 * augur run --max-memory 64MiB => exit 137: memory budget of 64.0 MiB exhausted; rss < 400MiB
 * augur analyze --max-memory 64MiB --detect-only => exit 4: INCOMPLETE: augur: memory budget of 64.0 MiB exhausted; rss < 400MiB
 */
#include <stdlib.h>
#include <string.h>

int main(void) {
	for (;;) {
		char *p = malloc(1 << 20); /* budget: memory */
		memset(p, 1, 1 << 20);
	}
}
