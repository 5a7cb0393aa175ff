/* Inline assembly that reads the zero flag an atomic instruction leaves,
 * and the operand forms without a size suffix: a compare-and-swap whose
 * success is a flag output ("=@ccz"), one followed by sete, a reference
 * count dropped with `lock decl; sete` (the last owner frees), xadd and
 * xchg without suffixes, xchg with its memory as an input. augur lowers
 * each to the atomic operation it is and computes the flag; the output
 * must be native's. */
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>

struct obj {
	volatile int refs;
	int value;
};

static volatile long owner;
static volatile int ticket;
static int freed_by = -1;

static int cas_long(volatile long *p, long expect, long want) {
	_Bool took;
	__asm__ __volatile__("lock cmpxchg %3, %1" : "=@ccz"(took), "+m"(*p), "+a"(expect) : "r"(want) : "memory");
	return took;
}

static int cas_sete(volatile int *p, int expect, int want) {
	unsigned char took;
	__asm__ __volatile__("lock; cmpxchgl %3, %1\n\tsete %0" : "=q"(took), "+m"(*p), "+a"(expect) : "r"(want) : "memory");
	return took;
}

static int put_ref(volatile int *refs) {
	unsigned char last;
	__asm__ __volatile__("lock; decl %0; sete %1" : "+m"(*refs), "=qm"(last) : : "memory");
	return last;
}

static int take_ticket(volatile int *p) {
	int mine;
	__asm__ __volatile__("lock xadd %0, %1" : "=r"(mine), "+m"(*p) : "0"(1) : "memory");
	return mine;
}

static int swap_in(volatile int *p, int v) {
	__asm__ __volatile__("xchg %0, %1" : "=r"(v) : "m"(*p), "0"(v) : "memory");
	return v;
}

struct arg {
	struct obj *o;
	int id;
};

static void *user(void *p) {
	struct arg *a = p;
	while (!cas_long(&owner, 0, a->id + 1))
		;
	a->o->value += 10 * (take_ticket(&ticket) + 1);
	__atomic_store_n(&owner, 0, __ATOMIC_RELEASE);
	if (put_ref(&a->o->refs)) {
		freed_by = a->id;
		free(a->o);
	}
	return 0;
}

int main(void) {
	struct obj *o = malloc(sizeof *o);
	o->refs = 3;
	o->value = 0;
	struct arg a[2] = {{o, 0}, {o, 1}};
	pthread_t t[2];
	for (int i = 0; i < 2; i++)
		pthread_create(&t[i], 0, user, &a[i]);
	for (int i = 0; i < 2; i++)
		pthread_join(t[i], 0);
	printf("value %d, tickets %d\n", o->value, ticket);
	int last = put_ref(&o->refs);
	printf("main dropped the last reference: %d\n", last);
	if (last)
		free(o);
	volatile int flag = 7;
	printf("cas 7->8 took %d, cas 7->9 took %d, flag %d\n", cas_sete(&flag, 7, 8), cas_sete(&flag, 7, 9), flag);
	printf("swap gave %d, flag %d, freed by %d\n", swap_in(&flag, 1), flag, freed_by);
	return 0;
}
