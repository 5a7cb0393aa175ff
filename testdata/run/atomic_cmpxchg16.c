/* Sixteen-byte compare-and-swap (cmpxchg16b), as lock-free code takes it
 * under -mcx16: a stack whose top is a pointer and a counter (the counter
 * defeats ABA), pushed and popped by two threads with
 * __sync_bool_compare_and_swap on an __int128; and the __atomic builtins
 * on an __int128 (compare-exchange, exchange, fetch-add, fetch-or, max
 * through a compare-exchange loop), and the __sync ones that are
 * atomicrmw instructions on it. The output must be native's. */
// cflags: -mcx16
// ldflags: -latomic
#include <pthread.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>

struct node {
	struct node *next;
	int value;
};

typedef union {
	struct {
		struct node *ptr;
		uintptr_t count;
	} s;
	unsigned __int128 whole;
} top_t;

static top_t top __attribute__((aligned(16)));

static void push(struct node *n) {
	top_t old, next;
	do {
		old.whole = __atomic_load_n(&top.whole, __ATOMIC_ACQUIRE);
		n->next = old.s.ptr;
		next.s.ptr = n;
		next.s.count = old.s.count + 1;
	} while (!__sync_bool_compare_and_swap(&top.whole, old.whole, next.whole));
}

static struct node *pop(void) {
	top_t old, next;
	do {
		old.whole = __atomic_load_n(&top.whole, __ATOMIC_ACQUIRE);
		if (old.s.ptr == NULL)
			return NULL;
		next.s.ptr = old.s.ptr->next;
		next.s.count = old.s.count + 1;
	} while (!__sync_bool_compare_and_swap(&top.whole, old.whole, next.whole));
	return old.s.ptr;
}

static struct node nodes[2][50];
static long popped[2];

static void *worker(void *arg) {
	long id = (long)arg;
	for (int i = 0; i < 50; i++) {
		nodes[id][i].value = (int)id * 100 + i;
		push(&nodes[id][i]);
		if (i % 2 == 1 && pop() != NULL)
			popped[id]++;
	}
	return NULL;
}

static void print128(const char *what, unsigned __int128 v) {
	printf("%s %016llx%016llx\n", what, (unsigned long long)(v >> 64), (unsigned long long)v);
}

int main(void) {
	pthread_t t[2];
	for (long i = 0; i < 2; i++)
		pthread_create(&t[i], NULL, worker, (void *)i);
	for (int i = 0; i < 2; i++)
		pthread_join(t[i], NULL);
	int left = 0;
	long sum = 0;
	for (struct node *n; (n = pop()) != NULL; left++)
		sum += n->value;
	printf("popped %ld, left %d, pushes and pops counted %lu\n", popped[0] + popped[1], left,
	       (unsigned long)top.s.count);
	(void)sum;

	unsigned __int128 v = ((unsigned __int128)1 << 100) | 7, expected = 7, got;
	int ok = __atomic_compare_exchange_n(&v, &expected, 9, 0, __ATOMIC_SEQ_CST, __ATOMIC_SEQ_CST);
	printf("cas failed %d, ", !ok);
	print128("expected now", expected);
	ok = __atomic_compare_exchange_n(&v, &expected, ((unsigned __int128)3 << 64) | 1, 0, __ATOMIC_SEQ_CST,
					 __ATOMIC_SEQ_CST);
	printf("cas %d, ", ok);
	print128("value", v);
	got = __atomic_exchange_n(&v, ~(unsigned __int128)0, __ATOMIC_SEQ_CST);
	print128("exchanged out", got);
	got = __atomic_fetch_add(&v, 2, __ATOMIC_SEQ_CST);
	print128("add from", got);
	print128("wrapped to", v);
	__atomic_fetch_or(&v, (unsigned __int128)0xf0 << 64, __ATOMIC_SEQ_CST);
	print128("or", v);
	got = __sync_fetch_and_add(&v, (unsigned __int128)1 << 64);
	print128("sync add from", got);
	got = __sync_fetch_and_and(&v, ~(unsigned __int128)0xff);
	print128("sync and from", got);
	got = __sync_lock_test_and_set(&v, 42);
	print128("sync exchanged out", got);
	print128("sync now", v);
	__int128 s = -5, cur = __atomic_load_n(&s, __ATOMIC_SEQ_CST);
	while (cur < 3 && !__atomic_compare_exchange_n(&s, &cur, 3, 1, __ATOMIC_SEQ_CST, __ATOMIC_SEQ_CST))
		;
	printf("max %lld\n", (long long)s);
	return 0;
}
