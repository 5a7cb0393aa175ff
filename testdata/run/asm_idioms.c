/* The x86 inline-assembly idioms hand-written synchronization uses, each
 * one instruction: lock xadd, lock inc/dec, lock add, lock cmpxchg, xchg,
 * mfence/lfence/sfence, the old `lock; orl $0,(%rsp)` fence, a compiler
 * barrier, pause, rdtsc and cpuid. augur lowers them to the atomic
 * operations and fences they are; the output must be native's, and the
 * data they protect must not be reported as racing. */
#include <pthread.h>
#include <stdint.h>
#include <stdio.h>

static volatile int counter, spin, refs = 1;
static volatile long bytes;
static long protected_total; /* guarded by the xchg spinlock */

static int fetch_add(volatile int *p, int v) {
	__asm__ __volatile__("lock; xaddl %0, %1" : "+r"(v), "+m"(*p) : : "memory");
	return v;
}

static int compare_swap(volatile int *p, int old, int new) {
	int prev;
	__asm__ __volatile__("lock; cmpxchgl %2,%1" : "=a"(prev), "+m"(*p) : "r"(new), "0"(old) : "memory");
	return prev;
}

static int exchange(volatile int *p, int v) {
	__asm__ __volatile__("xchgl %0,%1" : "=r"(v), "+m"(*p) : "0"(v) : "memory");
	return v;
}

static void spin_lock(volatile int *l) {
	while (exchange(l, 1))
		__asm__ __volatile__("pause");
}

static void spin_unlock(volatile int *l) {
	__asm__ __volatile__("" ::: "memory");
	exchange(l, 0);
}

static uint64_t cycles(void) {
	uint32_t lo, hi;
	__asm__ __volatile__("rdtsc" : "=a"(lo), "=d"(hi));
	return (uint64_t)hi << 32 | lo;
}

static void *worker(void *arg) {
	long id = (long)arg;
	for (int i = 0; i < 50; i++) {
		fetch_add(&counter, 1);
		__asm__ __volatile__("lock; addq %1,%0" : "+m"(bytes) : "ir"(id + 1));
		__asm__ __volatile__("lock; incl %0" : "+m"(refs) : : "memory");
		__asm__ __volatile__("lock; decl %0" : "+m"(refs) : : "memory");
		int seen;
		do
			seen = __atomic_load_n(&counter, __ATOMIC_RELAXED);
		while (compare_swap(&counter, seen, seen + 1) != seen);
		spin_lock(&spin);
		protected_total += id;
		spin_unlock(&spin);
		__asm__ __volatile__("mfence" ::: "memory");
		__asm__ __volatile__("lfence" ::: "memory");
		__asm__ __volatile__("sfence" ::: "memory");
		__asm__ __volatile__("lock; orl $0,(%%rsp)" ::: "memory");
		__asm__ __volatile__("rep; nop");
	}
	return NULL;
}

int main(void) {
	uint64_t start = cycles();
	unsigned a, b, c, d;
	__asm__ __volatile__("cpuid" : "=a"(a), "=b"(b), "=c"(c), "=d"(d) : "0"(0), "2"(0));
	pthread_t t[3];
	for (long i = 0; i < 3; i++)
		pthread_create(&t[i], NULL, worker, (void *)i);
	for (int i = 0; i < 3; i++)
		pthread_join(t[i], NULL);
	printf("counter %d bytes %ld refs %d total %ld\n", counter, bytes, refs, protected_total);
	printf("cycles advance: %d\n", cycles() >= start);
	printf("cpuid leaf 0 answered: %d\n", a < 0x100000 && (b | c | d | 1) != 0);
	int old = exchange(&spin, 7);
	printf("xchg returned %d, now %d\n", old, spin);
	return 0;
}
