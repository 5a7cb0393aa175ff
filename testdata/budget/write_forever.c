/* Writes a megabyte per call to a file, for ever: a few instructions per
 * megabyte, so budgets checked only every so many instructions would let
 * it run through gigabytes first. The bytes the calls move count too: the
 * memory budget stops it once the file passes the budget, and the time
 * budget holds while it rewrites the same megabytes.
 *
 * augur run --max-memory 64MiB => exit 137: memory budget of 64.0 MiB exhausted; rss < 500MiB
 * augur run --max-memory 64MiB --timeout 2s --env REWIND=1 => exit 124: time budget of 2s exhausted; rss < 500MiB
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

int main(void) {
	int rewinding = getenv("REWIND") != NULL;
	FILE *f = fopen("out.bin", "w");
	char *buf = malloc(1 << 20);
	memset(buf, 'x', 1 << 20);
	for (int i = 0;; i++) {
		fwrite(buf, 1, 1 << 20, f); /* budget: memory, time */
		if (rewinding && i % 16 == 15)
			rewind(f);
	}
}
