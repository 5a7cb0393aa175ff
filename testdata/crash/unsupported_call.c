// expect: unsupported "call to external function 'dlopen'" line 6
#include <dlfcn.h>

int main(void) {
	void *lib;
	lib = dlopen("libplugin.so", RTLD_NOW);
	return lib != 0;
}
