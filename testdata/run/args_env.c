// args: first --flag=2 "third"
/* argc and argv as the program sees them. */
#include <stdio.h>
#include <string.h>

int main(int argc, char **argv) {
	printf("argc %d\n", argc);
	for (int i = 1; i < argc; i++)
		printf("argv[%d] = %s (%zu)\n", i, argv[i], strlen(argv[i]));
	printf("argv[argc] is %s\n", argv[argc] ? "set" : "NULL");
	return argc;
}
