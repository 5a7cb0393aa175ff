/* A failed assert prints glibc's message and aborts; buffered stdout is lost
 * as natively. */
#include <assert.h>
#include <stdio.h>

static int check(int x) {
	assert(x < 10 && "x must stay small");
	return x * 2;
}

int main(void) {
	printf("this stays in the stdio buffer\n");
	int s = 0;
	for (int i = 0; i < 20; i++)
		s += check(i);
	return s;
}
