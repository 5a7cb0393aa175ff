// stdin: two lines\nof input, read in blocks\n
/* Reads standard input with read(2) on descriptor 0, in blocks of 7
 * bytes, and counts the blocks, bytes and lines. */
#include <stdio.h>
#include <unistd.h>

int main(void) {
	char buf[7];
	long n, bytes = 0, lines = 0, blocks = 0;
	while ((n = read(0, buf, sizeof buf)) > 0) {
		blocks++;
		bytes += n;
		for (long i = 0; i < n; i++)
			lines += buf[i] == '\n';
	}
	printf("%ld blocks, %ld bytes, %ld lines\n", blocks, bytes, lines);
	return 0;
}
