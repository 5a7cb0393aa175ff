/* Function pointers: tables, callbacks, qsort comparators, returning
 * functions. */
#include <stdio.h>
#include <stdlib.h>

typedef int (*binop)(int, int);
static int add(int a, int b) { return a + b; }
static int sub(int a, int b) { return a - b; }
static int mul(int a, int b) { return a * b; }

static binop pick(char c) {
	switch (c) {
	case '+':
		return add;
	case '-':
		return sub;
	default:
		return mul;
	}
}

static int by_desc(const void *a, const void *b) { return *(const int *)b - *(const int *)a; }

struct op {
	const char *name;
	binop fn;
};
static struct op table[] = {{"add", add}, {"sub", sub}, {"mul", mul}};

static void each(int *xs, int n, void (*f)(int *)) {
	for (int i = 0; i < n; i++)
		f(&xs[i]);
}
static void twice(int *x) { *x *= 2; }

int main(void) {
	for (int i = 0; i < 3; i++)
		printf("%s(7,3) = %d\n", table[i].name, table[i].fn(7, 3));
	printf("pick %d %d %d\n", pick('+')(2, 3), pick('-')(2, 3), pick('*')(2, 3));
	int xs[] = {5, 1, 4, 2, 3, 9, 0};
	qsort(xs, 7, sizeof xs[0], by_desc);
	each(xs, 7, twice);
	for (int i = 0; i < 7; i++)
		printf("%d ", xs[i]);
	printf("\n%d\n", table[1].fn == sub);
	return 0;
}
