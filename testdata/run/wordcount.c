// stdin: the quick brown fox\n  jumps over\tthe lazy dog\n\nthe end\n
/* wc: counts lines, words and bytes of standard input with getchar, and the
 * most frequent word. */
#include <ctype.h>
#include <stdio.h>
#include <string.h>

int main(void) {
	int c, lines = 0, words = 0, bytes = 0, in_word = 0;
	char cur[32], best[32] = "";
	int curlen = 0, best_count = 0;
	char seen[32][32];
	int counts[32] = {0}, nseen = 0;
	while ((c = getchar()) != EOF) {
		bytes++;
		if (c == '\n')
			lines++;
		if (isspace(c)) {
			if (in_word) {
				cur[curlen] = 0;
				int k = 0;
				while (k < nseen && strcmp(seen[k], cur) != 0)
					k++;
				if (k == nseen && nseen < 32)
					strcpy(seen[nseen++], cur);
				if (k < 32 && ++counts[k] > best_count) {
					best_count = counts[k];
					strcpy(best, cur);
				}
			}
			in_word = 0;
			curlen = 0;
		} else {
			if (!in_word)
				words++;
			in_word = 1;
			if (curlen < 31)
				cur[curlen++] = (char)c;
		}
	}
	printf("%d %d %d most '%s' x%d\n", lines, words, bytes, best, best_count);
	return 0;
}
