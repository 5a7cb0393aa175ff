/* Does not compile: the language server shows clang's error on line 6. */
#include <stdio.h>

int main(void) {
	int total = 0;
	total += undeclared_value; // error: undeclared identifier
	printf("%d\n", total);
	return 0;
}
