/* long double in memory (80-bit x87 format, 16-byte slots) and through
 * varargs. augur computes long double in double precision, so the values
 * here are exact in both. */
#include <stdio.h>
#include <string.h>

static long double scale(long double x, int k) {
	while (k-- > 0)
		x *= 2;
	return x;
}

int main(void) {
	long double xs[4] = {0.5L, -1.25L, 1024.0L, 3.0L};
	long double sum = 0;
	for (int i = 0; i < 4; i++)
		sum += xs[i];
	printf("sizeof %zu sum %Lf scaled %Lg %.3Le\n", sizeof(long double), sum, scale(0.75L, 10), xs[1]);
	unsigned char raw[16];
	memset(raw, 0, sizeof raw);
	memcpy(raw, &xs[3], 10);
	for (int i = 9; i >= 0; i--)
		printf("%02x", raw[i]);
	printf("\n");
	double d = (double)xs[2] / 3;
	long double back = d;
	printf("%d %d\n", (double)back == d, xs[0] < xs[3]);
	return 0;
}
