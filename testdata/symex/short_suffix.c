/* A suffix check that trusts the name to be longer than its suffix: on a
 * name shorter than ".txt" it reads before the name's first byte. The
 * analysis's own argument is long enough; the exploration of inputs,
 * around it, finds a short one. The failure's evidence must replay on
 * the short argument as given (its buffer as long as the argument), not
 * as the symbolic run held it (as long as the original). */
#include <stdio.h>
#include <string.h>

int main(int argc, char **argv) {
	if (argc < 2)
		return 1;
	const char *name = argv[1];
	size_t n = strlen(name);
	const char *suffix = name + n - 4;
	if (suffix[0] == '.' && suffix[1] == 't' && suffix[2] == 'x' && suffix[3] == 't')
		printf("%s is text\n", name);
	return 0;
}
