// expect: abort SIGABRT "abort() called" line 6
#include <stdlib.h>

int main(int argc, char **argv) {
	if (argc < 5)
		abort();
	return 0;
}
