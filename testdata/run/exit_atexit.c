/* exit() with a status runs atexit handlers in reverse and flushes stdout. */
#include <stdio.h>
#include <stdlib.h>

static void first(void) { printf("first registered, last run\n"); }
static void second(void) { printf("second registered, first run\n"); }

static void leave(int depth) {
	if (depth == 3) {
		printf("leaving from depth %d", depth);
		exit(3);
	}
	leave(depth + 1);
}

int main(void) {
	atexit(first);
	atexit(second);
	fprintf(stderr, "to stderr\n");
	leave(0);
	return 0;
}
