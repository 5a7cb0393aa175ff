/* Crashes only when the first argument spells "bug!". */
// expect: --sym-arg 4: crash "null pointer" args bug!
#include <stddef.h>

int main(int argc, char **argv) {
	const char *w = argv[1];
	if (w[0] == 'b' && w[1] == 'u' && w[2] == 'g' && w[3] == '!') {
		int *p = NULL;
		*p = 1;
	}
	return 0;
}
