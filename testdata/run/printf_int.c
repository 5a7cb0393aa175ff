/* Every integer printf conversion with flags, width, precision and length. */
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>

int main(void) {
	int vals[] = {0, 1, -1, 42, -42, 2147483647, -2147483647 - 1};
	for (int i = 0; i < 7; i++) {
		int v = vals[i];
		printf("[%d][%5d][%-5d][%05d][%+d][% d][%.3d][%8.3d][%-+8.3d]\n", v, v, v, v, v, v, v, v, v);
		printf("[%i][%u][%x][%X][%o][%#x][%#o][%#X][%08x]\n", v, v, v, v, v, v, v, v, v);
	}
	printf("[%hhd][%hhu][%hd][%hu]\n", 300, 300, 70000, 70000);
	printf("[%ld][%lu][%lld][%llu][%lx]\n", -5L, 5UL, -9000000000LL, 18446744073709551615ULL, 0xdeadbeefcafeL);
	printf("[%zu][%zd][%jd][%td]\n", sizeof(long double), (ptrdiff_t)-3, (intmax_t)77, (ptrdiff_t)12);
	printf("[%*d][%-*d][%.*d]\n", 6, 12, 6, 12, 4, 12);
	printf("[%.0d][%.0x][%#.0o]\n", 0, 0, 0);
	printf("[%c][%3c][%-3c]%%\n", 'a', 'b', 'c');
	return 0;
}
