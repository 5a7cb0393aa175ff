/* A program in three files: main.c, stack.c and stack.h. */
#include <stdio.h>
#include "stack.h"

int main(void) {
	struct stack *s = stack_new(2);
	for (int i = 1; i <= 10; i++)
		stack_push(s, i * i);
	printf("size %d\n", stack_size(s));
	long sum = 0;
	while (stack_size(s) > 0)
		sum += stack_pop(s);
	printf("sum %ld pushes %d\n", sum, stack_pushes);
	stack_free(s);
	return 0;
}
