// expect: crash SIGSEGV "out of bounds heap access: read of 4 bytes at offset 40" line 8
#include <stdlib.h>

int main(void) {
	int *a = malloc(10 * sizeof *a);
	int s = 0;
	for (int i = 0; i <= 10; i++)
		s += a[i];
	return s;
}
