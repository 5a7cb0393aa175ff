// expect: crash SIGSEGV "out of bounds stack access: write of 1 byte at offset 8" line 7
#include <string.h>

static void fill(const char *src) {
	char buf[8];
	for (int i = 0; src[i]; i++)
		buf[i] = src[i];
}

int main(void) {
	fill("overflowing");
	return 0;
}
