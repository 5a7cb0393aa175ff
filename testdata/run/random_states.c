/* random() over the state buffers of initstate() and setstate(), as old
 * benchmarks use them: every buffer size's generator (8 bytes: a linear
 * congruence; 32 to 256: additive feedback of degree 7 to 63), switching
 * back and forth mid-sequence, and rand() sharing the state; then the
 * reentrant forms (initstate_r, random_r, srandom_r, setstate_r) giving
 * each of two threads a generator of its own, which must not disturb
 * random()'s. The numbers must be glibc's. */
#define _DEFAULT_SOURCE
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

struct gen {
	struct random_data rd;
	char state[64];
	int32_t out[4];
	unsigned seed;
};

static void *draw(void *arg) {
	struct gen *g = arg;
	memset(&g->rd, 0, sizeof g->rd);
	if (initstate_r(g->seed, g->state, sizeof g->state, &g->rd) != 0)
		return NULL;
	for (int k = 0; k < 4; k++)
		random_r(&g->rd, &g->out[k]);
	return g;
}

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

	struct gen gens[2] = {{.seed = 11}, {.seed = 12}};
	pthread_t t[2];
	for (int i = 0; i < 2; i++)
		pthread_create(&t[i], NULL, draw, &gens[i]);
	for (int i = 0; i < 2; i++)
		pthread_join(t[i], NULL);
	for (int i = 0; i < 2; i++)
		printf("random_r seed %u: %d %d %d %d\n", gens[i].seed, gens[i].out[0], gens[i].out[1], gens[i].out[2], gens[i].out[3]);
	int32_t v, w;
	srandom_r(11, &gens[0].rd);
	random_r(&gens[0].rd, &v);
	static char small[8];
	struct random_data lc;
	memset(&lc, 0, sizeof lc);
	initstate_r(3, small, sizeof small, &lc);
	random_r(&lc, &w);
	printf("srandom_r again: %d (first was %d); 8-byte state: %d\n", v, gens[0].out[0], w);
	setstate_r(gens[1].state, &gens[0].rd);
	random_r(&gens[0].rd, &v);
	printf("setstate_r to the other's state: %d\n", v);
	printf("too small: %d; random() unmoved: %ld\n", initstate_r(1, small, 4, &lc), random());
	return 0;
}
