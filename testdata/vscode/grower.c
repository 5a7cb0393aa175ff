/* A cache that keeps every block it loads: 384 blocks of a megabyte,
 * then it prints how many it holds. The VS Code end-to-end test lowers
 * augur.maxMemory to 128 MiB before opening it: the analysis stops at the
 * allocation that would pass the budget, and the editor shows a warning
 * there (the analysis's limit, not the program's failure). Under the
 * default budget it ends, so a test that opened it before the setting
 * took effect would not hold gigabytes. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#define BLOCKS 384

static char *cache[BLOCKS];

int main(void) {
	int held = 0;
	for (int i = 0; i < BLOCKS; i++) {
		cache[i] = malloc(1 << 20);
		if (cache[i] == NULL)
			break;
		memset(cache[i], i, 1 << 20);
		held++;
	}
	printf("%d blocks cached\n", held);
	return 0;
}
