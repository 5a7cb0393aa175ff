// expect: crash SIGSEGV "use after free: read of 8 bytes" line 11
#include <stdlib.h>

struct node { long v; struct node *next; };

int main(void) {
	struct node *n = malloc(sizeof *n);
	n->v = 42;
	n->next = NULL;
	free(n);
	return (int)n->v;
}
