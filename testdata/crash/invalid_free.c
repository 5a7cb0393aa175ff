// expect: crash SIGABRT "free of a pointer 4 bytes inside" line 6
#include <stdlib.h>

int main(void) {
	int *p = malloc(4 * sizeof *p);
	free(p + 1);
	return 0;
}
