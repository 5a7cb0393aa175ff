// expect: unsupported "call to external function 'fork'" line 6
#include <unistd.h>

int main(void) {
	pid_t p;
	p = fork();
	return p > 0;
}
