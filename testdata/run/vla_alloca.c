/* Variable-length arrays in loops (stack save/restore) and alloca. */
#include <alloca.h>
#include <stdio.h>
#include <string.h>

static long triangle(int n) {
	long total = 0;
	for (int row = 1; row <= n; row++) {
		int vla[row];
		for (int i = 0; i < row; i++)
			vla[i] = i + 1;
		for (int i = 0; i < row; i++)
			total += vla[i];
	}
	return total;
}

static void greet(const char *name) {
	char *buf = alloca(strlen(name) + 8);
	strcpy(buf, "hi, ");
	strcat(buf, name);
	puts(buf);
}

int main(void) {
	printf("triangle %ld\n", triangle(200));
	greet("augur");
	int n = 5;
	double m[n][n];
	for (int i = 0; i < n; i++)
		for (int j = 0; j < n; j++)
			m[i][j] = i == j ? 2.0 : (i + j) * 0.5;
	double tr = 0;
	for (int i = 0; i < n; i++)
		tr += m[i][i] + m[i][n - 1 - i];
	printf("matrix %.2f\n", tr);
	return 0;
}
