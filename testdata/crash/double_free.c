// expect: crash SIGABRT "double free of heap object" line 7
#include <stdlib.h>

int main(void) {
	char *p = malloc(16);
	free(p);
	free(p);
	return 0;
}
