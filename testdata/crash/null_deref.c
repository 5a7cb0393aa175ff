// expect: crash SIGSEGV "null pointer dereference: write of 4 bytes" line 7
#include <stddef.h>

struct s { int a, b; };

static void set(struct s *p) {
	p->b = 1;
}

int main(void) {
	set(NULL);
	return 0;
}
