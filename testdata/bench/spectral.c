/* The largest eigenvalue of an infinite matrix by power iteration, in the
 * style of the Benchmarks Game's spectral-norm: nested loops of floating
 * point multiply-adds over arrays, a function call per matrix element.
 * argv[1] is the size (default 120). Prints the norm. */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>

static double entry(int i, int j) { return 1.0 / ((i + j) * (i + j + 1) / 2 + i + 1); }

/* times sets out = A v (transposed: A^T v). */
static void times(int n, const double *v, double *out, int transposed) {
	for (int i = 0; i < n; i++) {
		double sum = 0;
		for (int j = 0; j < n; j++)
			sum += (transposed ? entry(j, i) : entry(i, j)) * v[j];
		out[i] = sum;
	}
}

static void times_ata(int n, const double *v, double *out, double *tmp) {
	times(n, v, tmp, 0);
	times(n, tmp, out, 1);
}

int main(int argc, char **argv) {
	int n = argc > 1 ? atoi(argv[1]) : 120;
	double *u = malloc(n * sizeof *u), *v = malloc(n * sizeof *v), *tmp = malloc(n * sizeof *tmp);
	for (int i = 0; i < n; i++)
		u[i] = 1;
	for (int k = 0; k < 10; k++) {
		times_ata(n, u, v, tmp);
		times_ata(n, v, u, tmp);
	}
	double uv = 0, vv = 0;
	for (int i = 0; i < n; i++) {
		uv += u[i] * v[i];
		vv += v[i] * v[i];
	}
	printf("%.9f\n", sqrt(uv / vv));
	free(u);
	free(v);
	free(tmp);
	return 0;
}
