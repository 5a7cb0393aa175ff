/* %n stores how many bytes the call has produced so far, in an int or in
 * the width its length modifier gives; snprintf counts what it would have
 * written, not what fit. */
#include <stdio.h>

int main(void) {
	int a = -1, b = -1;
	printf("abc%n-%5d%n|\n", &a, 42, &b);
	printf("a=%d b=%d\n", a, b);
	char buf[8];
	int c = -1;
	long l = -1;
	signed char hh = -1;
	short h = -1;
	snprintf(buf, sizeof buf, "%s%n%hhn%hn%ln!", "0123456789", &c, &hh, &h, &l);
	printf("[%s] c=%d hh=%d h=%d l=%ld\n", buf, c, hh, h, l);
	char line[64];
	int at = 0;
	sprintf(line, "%s:%d:%n%s", "file.c", 120, &at, "message");
	printf("%s at=%d rest=%s\n", line, at, line + at);
	return 0;
}
