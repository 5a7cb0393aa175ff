// stdin: hello world\nsecond line\n\nlast without newline
/* Reads standard input with fgets and getchar and transforms it. */
#include <ctype.h>
#include <stdio.h>
#include <string.h>

int main(void) {
	char line[8];
	int lines = 0;
	while (fgets(line, sizeof line, stdin)) {
		for (char *p = line; *p; p++)
			*p = (char)toupper((unsigned char)*p);
		printf("[%s]", line);
		if (strchr(line, '\n'))
			lines++;
	}
	printf("\nlines %d eof %d getchar %d\n", lines, feof(stdin) != 0, getchar());
	return 0;
}
