/* The input reaches the check only through memcpy and a string printed
 * with %s: both must carry its symbolic bytes. */
// expect: --sym-arg 3: assert "copied" args OK!
#include <augur.h>
#include <stdio.h>
#include <string.h>

int main(int argc, char **argv) {
	char copy[8] = {0};
	memcpy(copy, argv[1], 4);
	if (copy[0] == 'O' && copy[1] == 'K' && copy[2] == '!')
		augur_assert(0, "copied input matched");
	printf("%s\n", copy);
	return 0;
}
