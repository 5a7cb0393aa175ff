/* The operations the interpreter's compact form (ir.Code) specializes, at
 * the widths and signs where a wrong specialization would show: signed and
 * unsigned compares of 8 to 64 bits, sign extensions, shifts, integer
 * division and remainder, arithmetic shifts, one- and two-index address
 * arithmetic with negative, narrow and huge scales, double arithmetic with
 * a multiply-add whose fused result would differ, conversions between
 * doubles and integers (out of range too), float arithmetic, negation,
 * and phis that swap. Expected: the same output as the native build. */
#include <stdio.h>

static volatile long seed = -3;

struct huge { char bytes[3000000000L]; };

int main(void) {
	long v = seed; /* -3, read at run time */
	signed char c = (signed char)v;
	short s = (short)(v * 1000);
	int i = (int)v;
	unsigned char uc = (unsigned char)v;
	printf("slt %d %d %d %d\n", c < 1, s < -2999, i < -3, v < 0);
	printf("sgt %d %d %d %d\n", c > -4, s > 0, i > -4, v > -3);
	printf("ult %d %d %d\n", uc < 250, (unsigned)i < 5u, (unsigned long)v < 5ul);
	printf("eq %d %d le %d %d ge %d\n", c == -3, uc != 253, i <= -3, c <= -4, (unsigned short)s >= 62536);
	printf("sext %d %ld %ld %lld\n", (int)c, (long)s, (long)i, (long long)(signed char)uc);
	printf("shl %u %lu shr %u %lu %d %ld\n", 1u << (i + 34), 3ul << (-i * 20), 0x80000000u >> -i,
	       (unsigned long)v >> 60, i >> 1, v >> 63);
	printf("div %d %d %lu %lu %d\n", i * 7 / 2, i * 7 % 2, (unsigned long)v / 7, (unsigned long)v % 7, uc / 10);
	int arr[8] = {10, 11, 12, 13, 14, 15, 16, 17};
	int *mid = &arr[4];
	printf("index %d %d %d\n", mid[v], mid[c], arr[uc - 250]);
	struct huge *h = 0;
	printf("huge %ld\n", (long)((char *)(h - v) - (char *)h));
	double a = 1.0 + 1.0 / (1 << 30), b = 1.0 - 1.0 / (1 << 30), m1 = v / 3.0;
	printf("fma %.17g\n", a * b + m1);
	printf("double %.17g %.17g %.17g %.17g\n", a + b, a - b, a * m1, b / m1);
	float fa = (float)a, fb = 1.0f / 3;
	printf("float %.9g %.9g %.9g\n", fa * fb + fb, fa / fb, -fb);
	printf("neg %g %g\n", -m1, -(m1 + 1));
	long x = 0, y = 1;
	for (int k = 0; k < 50 + i; k++) {
		long t = x;
		x = y;
		y = t + y;
	}
	int p = 1, q = 2;
	for (int k = 0; k < 5; k++) {
		int t = p;
		p = q;
		q = t;
	}
	printf("phis %ld %ld %d %d\n", x, y, p, q);
	/* Division, remainder and arithmetic shifts of every width and sign,
	 * conversions between doubles and signed integers, and negation of
	 * zero, infinity and NaN. */
	signed char sc = (signed char)(v * 40); /* -120 */
	short ss = (short)(v * 10000);          /* -30000 */
	long big = v * 3074457345618258602L;    /* wraps */
	printf("sdiv %d %d %d %d %ld %ld\n", sc / 7, sc % 7, ss / -7, ss % -7, big / v, big % 1000);
	printf("udiv %u %u %lu %lu\n", (unsigned char)sc / 3u, (unsigned short)ss % 1000u, (unsigned long)big / 3, (unsigned long)v % 10);
	printf("ashr %d %d %d %ld %ld\n", sc >> 3, ss >> 14, i >> 31, big >> 40, v >> (-i + 60));
	double d = -m1 * 1e10, nan = 0.0 / (m1 + 1);
	printf("sitofp %.17g %.17g %.17g\n", (double)sc, (double)ss, (double)big);
	printf("fptosi %d %ld %d %d\n", (int)(-d), (long)(m1 * 7.9), (int)(signed char)(m1 * 30), (short)(d / 1e7));
	/* Two-index address arithmetic: rows and columns, a struct array's
	 * member array, negative and narrow indexes. */
	static int grid[5][7];
	static struct { short pad; long pos[3]; } bodies[4];
	for (int r = 0; r < 5; r++)
		for (int k = 0; k < 7; k++)
			grid[r][k] = r * 10 + k;
	for (int b = 0; b < 4; b++)
		for (int k = 0; k < 3; k++)
			bodies[b].pos[k] = b * 100 + k;
	int (*row)[7] = &grid[3];
	printf("index2 %d %d %ld %ld %d\n", grid[(int)-v][c + 5], row[v + 2][uc - 251], bodies[i + 6].pos[-i - 1],
	       bodies[(signed char)(uc - 250)].pos[(short)(i + 4)], row[-1][(long)v + 9]);
	printf("fneg %g %g %g %d\n", -(m1 + 1), -(d * d * d * d * d * d * d * d * d * d * d * d * d * d * d * d * d * d * d * d * d * d * d * d * d * d * d * d * d * d * d * d), -(1 / (m1 + 1)), -nan != -nan);
	return 0;
}
