// expect: assert SIGABRT "augur_assert failed: queue must not be empty" line 7
#include <augur.h>

static int queue_len;

int main(void) {
	augur_assert(queue_len > 0, "queue must not be empty");
	return 0;
}
