/* Loops whose variables the lowering may give one slot with the value
 * their back edge brings (ir's joinPhis), and loops where it must not:
 * the old value read after the new one is computed, on the loop's exit,
 * by another phi of the same edge (a rotation), in an inner loop that
 * returns to the read without passing the header, and through a pointer
 * walk and a folded index. Expected: the same output as the native build. */
#include <stdio.h>

static volatile int seed = 7;

/* The simple case: i and s are joined with i + 1 and s + i * i. */
static long squares(int n) {
	long s = 0;
	for (int i = 0; i < n; i++)
		s = s + (long)i * i;
	return s;
}

/* a and b rotate: b's new value reads a's slot on the same edge. */
static long fib(int n) {
	long a = 0, b = 1;
	for (int i = 0; i < n; i++) {
		long t = a + b;
		a = b;
		b = t;
	}
	return a * 1000 + b;
}

/* The old i is read after i + 1 is computed. */
static long old_after_new(int n) {
	long s = 0;
	int i = 0;
	while (i < n) {
		int next = i + 1;
		s = s * 3 + i * next;
		i = next;
	}
	return s;
}

/* The loop leaves on the new value and prints the old one. */
static int exit_reads_old(int x) {
	for (;;) {
		int next = x * 3 + 1;
		if (next > 1000)
			break;
		x = next;
	}
	return x;
}

/* The inner loop returns to where the outer variable is read without
 * passing the outer loop's header. */
static long inner_loop(int n) {
	long s = 0;
	int j = 0;
	for (int i = 0; i < n; i++) {
		int k = 0;
		while (k < 3) {
			s += j * 10 + k;
			j = j + k;
			k++;
		}
		j = j - 1;
	}
	return s * 100 + j;
}

/* A pointer walk (p = p + 1 is a GEP joined with p) and an index that is
 * sign-extended into the GEP that reads it. */
static long walk(const int *a, int n) {
	long s = 0;
	const int *p = a;
	for (int i = 0; i < n; i++) {
		s += *p * a[i] + a[n - 1 - i];
		p = p + 1;
	}
	return s;
}

/* The inner loop's start value (j = i + 1, computed before it) and its
 * step (j + 1, on its back edge) both share j's slot. */
static long triangle(int n) {
	long s = 0;
	for (int i = 0; i < n; i++)
		for (int j = i + 1; j < n; j++)
			s += (long)i * j;
	return s;
}

/* x's next value is y on one path, computed in the block before the
 * branch (carried to its edge), and x + 3 on the other, computed on its
 * own edge's block: only the second may share x's slot. */
static int carried(int n) {
	int x = 1;
	for (int i = 0; i < n; i++) {
		int y = x * 2 + i;
		if (i & 1)
			x = y;
		else
			x = x + 3;
	}
	return x;
}

/* Doubles, and a count that goes up by different steps on two paths. */
static double paths(int n) {
	double x = 1.0;
	int i = 0;
	while (i < n) {
		if (i % 3 == 0) {
			x = x * 1.5 - i;
			i = i + 2;
		} else {
			x = x / 2 + i;
			i = i + 1;
		}
	}
	return x + i;
}

/* A do-while whose previous value is used once it ends. */
static int do_prev(int v) {
	int prev, cur = v;
	do {
		prev = cur;
		cur = cur / 2 + (cur & 1);
	} while (cur != prev && cur > 1);
	return prev * 100 + cur;
}

int main(void) {
	int n = seed;
	int a[16];
	for (int i = 0; i < 16; i++)
		a[i] = i * i - 5 * i;
	printf("squares %ld\n", squares(n * 100));
	printf("fib %ld\n", fib(n * 5));
	printf("old_after_new %ld\n", old_after_new(n + 10));
	printf("exit_reads_old %d\n", exit_reads_old(n));
	printf("inner_loop %ld\n", inner_loop(n));
	printf("walk %ld\n", walk(a, 16));
	printf("triangle %ld\n", triangle(n * 3));
	printf("carried %d\n", carried(n + 3));
	printf("paths %.6f\n", paths(n * 4));
	printf("do_prev %d %d\n", do_prev(n * 1000), do_prev(1));
	return 0;
}
