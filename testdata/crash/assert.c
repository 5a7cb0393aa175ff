// expect: assert SIGABRT "assertion `balance >= 0' failed" line 6
#include <assert.h>

int main(void) {
	int balance = 10 - 25;
	assert(balance >= 0);
	return 0;
}
