/* Doubles a buffer with realloc for ever, filling each new half: the
 * memory budget stops it at the reallocation that would pass the budget.
 * While realloc copies, the old and the new buffer are both live, so the
 * process briefly holds more than the program does.
 *
 * augur run --max-memory 64MiB => exit 137: memory budget of 64.0 MiB exhausted; rss < 500MiB
 * augur analyze --max-memory 64MiB --detect-only => exit 4: INCOMPLETE: augur: memory budget of 64.0 MiB exhausted; rss < 500MiB
 */
#include <stdlib.h>
#include <string.h>

int main(void) {
	size_t n = 1 << 20;
	char *p = malloc(n);
	memset(p, 1, n);
	for (;;) {
		char *q = realloc(p, 2 * n);
		if (q == NULL)
			return 1;
		memset(q + n, 1, n);
		p = q;
		n *= 2;
	}
}
