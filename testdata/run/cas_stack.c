/* A lock-free stack (Treiber) with compare-and-swap, pushed and popped by
 * several threads; the multiset of popped values is schedule-independent. */
#include <pthread.h>
#include <stdatomic.h>
#include <stdio.h>
#include <stdlib.h>

struct node {
	long v;
	struct node *next;
};

static _Atomic(struct node *) top;
static atomic_long popped_sum, popped_count;

static void push(long v) {
	struct node *n = malloc(sizeof *n);
	n->v = v;
	n->next = atomic_load(&top);
	while (!atomic_compare_exchange_weak(&top, &n->next, n))
		;
}

static int pop(long *v) {
	struct node *n = atomic_load(&top);
	while (n && !atomic_compare_exchange_weak(&top, &n, n->next))
		;
	if (!n)
		return 0;
	*v = n->v;
	return 1; /* nodes are leaked on purpose: freeing needs safe reclamation */
}

static void *producer(void *arg) {
	long base = (long)arg;
	for (long i = 0; i < 50; i++)
		push(base + i);
	return NULL;
}

static void *consumer(void *arg) {
	(void)arg;
	long v;
	for (int i = 0; i < 40; i++)
		if (pop(&v)) {
			atomic_fetch_add(&popped_sum, v);
			atomic_fetch_add(&popped_count, 1);
		}
	return NULL;
}

int main(void) {
	pthread_t p[2], c[2];
	pthread_create(&p[0], NULL, producer, (void *)0L);
	pthread_create(&p[1], NULL, producer, (void *)1000L);
	pthread_join(p[0], NULL);
	pthread_join(p[1], NULL);
	pthread_create(&c[0], NULL, consumer, NULL);
	pthread_create(&c[1], NULL, consumer, NULL);
	pthread_join(c[0], NULL);
	pthread_join(c[1], NULL);
	long rest = 0, v;
	while (pop(&v))
		rest += v;
	printf("popped %ld, all values sum %ld\n", atomic_load(&popped_count), atomic_load(&popped_sum) + rest);
	return 0;
}
