/* The binary-trees benchmark, depth 16 by default (argv[1]): millions of
 * allocations, most freed soon after. Memory must follow what the program
 * holds (one long-lived tree and one temporary one), not what it has
 * allocated. */
#include <stdio.h>
#include <stdlib.h>

struct node {
	struct node *l, *r;
};

static struct node *make(int d) {
	struct node *n = malloc(sizeof *n);
	if (d > 0) {
		n->l = make(d - 1);
		n->r = make(d - 1);
	} else {
		n->l = n->r = NULL;
	}
	return n;
}

static int check(struct node *n) { return n->l ? 1 + check(n->l) + check(n->r) : 1; }

static void release(struct node *n) {
	if (n->l) {
		release(n->l);
		release(n->r);
	}
	free(n);
}

int main(int argc, char **argv) {
	int max = argc > 1 ? atoi(argv[1]) : 16;
	struct node *longlived = make(max);
	for (int d = 4; d <= max; d += 2) {
		int iters = 1 << (max - d + 4), c = 0;
		for (int i = 0; i < iters; i++) {
			struct node *t = make(d);
			c += check(t);
			release(t);
		}
		printf("%d trees of depth %d check %d\n", iters, d, c);
	}
	printf("long lived tree of depth %d check %d\n", max, check(longlived));
	release(longlived);
	return 0;
}
