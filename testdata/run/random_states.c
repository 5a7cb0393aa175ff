/* random() over the state buffers of initstate() and setstate(), as old
 * benchmarks use them: every buffer size's generator (8 bytes: a linear
 * congruence; 32 to 256: additive feedback of degree 7 to 63), switching
 * back and forth mid-sequence, and rand() sharing the state. The numbers
 * must be glibc's. */
#include <stdio.h>
#include <stdlib.h>

int main(void) {
	printf("default: %ld %ld %d\n", random(), random(), rand());
	static char s8[8], s32[32], s64[64], s128[128], s256[256];
	char *bufs[] = {s8, s32, s64, s128, s256};
	size_t sizes[] = {8, 32, 64, 128, 256};
	char *orig = NULL;
	for (int i = 0; i < 5; i++) {
		char *old = initstate(7 + i, bufs[i], sizes[i]);
		if (i == 0)
			orig = old;
		printf("%3zu bytes:", sizes[i]);
		for (int k = 0; k < 4; k++)
			printf(" %ld", random());
		printf("\n");
	}
	setstate(s32);
	printf("back to 32: %ld %ld\n", random(), random());
	setstate(orig);
	printf("back to the first state: %ld %d\n", random(), rand());
	setstate(s256);
	srandom(99);
	printf("256 reseeded: %ld %ld\n", random(), random());
	srand(5);
	printf("srand(5): %d %d\n", rand(), rand());
	return 0;
}
