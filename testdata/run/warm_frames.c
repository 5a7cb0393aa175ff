/* Calls that reuse a frame's place on the stack: the interpreter keeps a
 * dropped frame's constants and skips copying them when the same
 * function is called again at the same place (vm's warmFrame). Here two
 * functions with different constants take turns at one place, one of
 * them calls a third above itself, recursion puts frames of one function
 * at many places, and longjmp drops frames without returns; every result
 * must use its own function's constants. Expected: the same output as the
 * native build. */
#include <setjmp.h>
#include <stdio.h>

static volatile int seed = 5;
static jmp_buf env;

/* Each of these reads bias, a global: a function that computes on its
 * arguments alone is inlined at its calls (ir's inlinePureLeaves) and
 * would make no frame. */
static int bias;

static double scale(int i) { return i * 1.5 + 7.25 + bias; }

static double shift(int i) { return i * -2.75 - 11.5 - bias; }

static long mix(long x) { return (x ^ 0x5bd1e995L) * 31 + 0x7f4a7c15L + bias; }

static long nested(int i) { return mix(i) + mix(i + 1) * 3 + 1000003; }

static long depth(int n) { return n <= 0 ? 17 : depth(n - 1) * 3 + n + 101; }

static void leave(int i) {
	if (i > 2)
		longjmp(env, i * 7 + 1);
	leave(i + 1);
}

int main(void) {
	double d = 0;
	long l = 0;
	for (int i = 0; i < seed * 4; i++) {
		d += scale(i);
		d += shift(i);
		d += scale(i) * 2;
		l += nested(i);
		l += mix(i);
		l += depth(i % 6);
	}
	int r = setjmp(env);
	if (r == 0)
		leave(0);
	l += r;
	l += nested(seed) + depth(3);
	printf("%.4f %ld %.4f\n", d, l, scale(seed) + shift(seed));
	return 0;
}
