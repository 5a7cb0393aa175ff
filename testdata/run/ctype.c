/* ctype classification and case mapping over all of ASCII. */
#include <ctype.h>
#include <stdio.h>

int main(void) {
	for (int c = 0; c < 128; c += 1) {
		int bits = !!isalpha(c) | !!isdigit(c) << 1 | !!isspace(c) << 2 | !!ispunct(c) << 3 |
		           !!isupper(c) << 4 | !!islower(c) << 5 | !!isxdigit(c) << 6 | !!iscntrl(c) << 7 |
		           !!isprint(c) << 8 | !!isgraph(c) << 9 | !!isalnum(c) << 10 | !!isblank(c) << 11;
		printf("%02x:%03x:%c%c ", c, bits, isprint(c) ? toupper(c) : '.', isprint(c) ? tolower(c) : '.');
		if (c % 8 == 7)
			printf("\n");
	}
	printf("eof %d %d\n", isalpha(EOF), toupper(EOF));
	return 0;
}
