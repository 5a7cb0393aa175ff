/* Compute-bound benchmark: a sieve, a matrix product, and a hash over the
 * results. Single-threaded; prints one checksum. */
#include <stdio.h>
#include <string.h>

#define N 200000
#define M 96

static char composite[N];
static double a[M][M], b[M][M], c[M][M];

int main(void) {
	int primes = 0;
	for (int round = 0; round < 24; round++) {
		memset(composite, 0, sizeof composite);
		primes = 0;
		for (int i = 2; i < N; i++) {
			if (composite[i])
				continue;
			primes++;
			for (int j = 2 * i; j < N; j += i)
				composite[j] = 1;
		}
	}
	for (int i = 0; i < M; i++)
		for (int j = 0; j < M; j++) {
			a[i][j] = (i * 7 + j) % 13;
			b[i][j] = (i + j * 3) % 11;
		}
	for (int i = 0; i < M; i++)
		for (int j = 0; j < M; j++) {
			double s = 0;
			for (int k = 0; k < M; k++)
				s += a[i][k] * b[k][j];
			c[i][j] = s;
		}
	unsigned h = 2166136261u;
	for (int i = 0; i < M; i++)
		for (int j = 0; j < M; j++) {
			h ^= (unsigned)c[i][j];
			h *= 16777619u;
		}
	printf("primes %d checksum %08x\n", primes, h);
	return 0;
}
