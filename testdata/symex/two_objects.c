/* A symbolic choice between two buffers: only the second starts with 'Z',
 * so the failure needs the pointer followed into both objects. */
// expect: assert "second buffer"
#include <augur.h>

static char first[4] = "abc";
static char second[4] = "Zyx";

int main(void) {
	int c = 0;
	augur_make_symbolic(&c, sizeof c, "c");
	char *p = (c & 1) ? second : first;
	if (p[0] == 'Z')
		augur_assert(0, "second buffer");
	return 0;
}
