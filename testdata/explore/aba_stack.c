/* ABA on a lock-free stack: a popper reads the top node and its
 * successor, then swaps the top with a compare-and-swap. If another
 * thread pops both nodes and pushes the first back in between, the
 * compare-and-swap still succeeds and installs a node that was popped:
 * the popper's next pop hands out a node the other thread holds.
 *
 * expect: assert (the line marked `bug:`)
 */
#include <assert.h>
#include <pthread.h>

struct node {
	struct node *next;
	int taken;
};

static struct node nodes[3];
static struct node *top;

static struct node *pop(void) {
	for (;;) {
		struct node *t = __atomic_load_n(&top, __ATOMIC_SEQ_CST);
		if (!t)
			return 0;
		struct node *next = t->next;
		if (__atomic_compare_exchange_n(&top, &t, next, 0, __ATOMIC_SEQ_CST, __ATOMIC_SEQ_CST))
			return t;
	}
}

static void push(struct node *n) {
	struct node *t = __atomic_load_n(&top, __ATOMIC_SEQ_CST);
	do
		n->next = t;
	while (!__atomic_compare_exchange_n(&top, &t, n, 0, __ATOMIC_SEQ_CST, __ATOMIC_SEQ_CST));
}

static void take(struct node *n) {
	int was = __atomic_fetch_add(&n->taken, 1, __ATOMIC_SEQ_CST);
	assert(was == 0); // bug: assert
}

static void release(struct node *n) { __atomic_fetch_sub(&n->taken, 1, __ATOMIC_SEQ_CST); }

static void *slow_popper(void *arg) {
	(void)arg;
	struct node *n = pop();
	if (n)
		take(n);
	struct node *m = pop(); /* after an ABA: a node the recycler holds */
	if (m)
		take(m);
	return 0;
}

static void *recycler(void *arg) {
	(void)arg;
	struct node *a = pop();
	struct node *b = pop();
	if (a) {
		take(a);
		release(a);
		push(a); /* a goes back; b is still out */
	}
	if (b)
		take(b);
	return 0;
}

int main(void) {
	push(&nodes[2]);
	push(&nodes[1]);
	push(&nodes[0]);
	pthread_t s, r;
	pthread_create(&s, 0, slow_popper, 0);
	pthread_create(&r, 0, recycler, 0);
	pthread_join(s, 0);
	pthread_join(r, 0);
	return 0;
}
