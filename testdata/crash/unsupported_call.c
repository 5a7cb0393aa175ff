// expect: unsupported "call to external function 'ptrace'" line 6
#include <sys/ptrace.h>

int main(void) {
	void *lib;
	lib = (void *)ptrace(PTRACE_TRACEME, 0, 0, 0);
	return lib != 0;
}
