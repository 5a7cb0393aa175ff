/* C11 and GCC atomics: counters, compare-exchange loops, flags, fences. */
#include <pthread.h>
#include <stdatomic.h>
#include <stdio.h>

static atomic_int hits;
static atomic_long maxval;
static long gcc_counter;
static atomic_flag spin = ATOMIC_FLAG_INIT;
static long guarded;

static void update_max(long v) {
	long cur = atomic_load(&maxval);
	while (v > cur && !atomic_compare_exchange_weak(&maxval, &cur, v))
		;
}

static void *worker(void *arg) {
	long id = (long)arg;
	for (int i = 0; i < 100; i++) {
		atomic_fetch_add_explicit(&hits, 1, memory_order_relaxed);
		__atomic_fetch_add(&gcc_counter, 2, __ATOMIC_SEQ_CST);
		update_max(id * 100 + i);
		while (atomic_flag_test_and_set_explicit(&spin, memory_order_acquire))
			;
		guarded++;
		atomic_flag_clear_explicit(&spin, memory_order_release);
	}
	atomic_thread_fence(memory_order_seq_cst);
	return NULL;
}

int main(void) {
	pthread_t t[3];
	for (long i = 0; i < 3; i++)
		pthread_create(&t[i], NULL, worker, (void *)i);
	for (int i = 0; i < 3; i++)
		pthread_join(t[i], NULL);
	int old = atomic_exchange(&hits, -1);
	printf("hits %d max %ld gcc %ld guarded %ld after-xchg %d\n", old, atomic_load(&maxval), gcc_counter, guarded,
	       atomic_load(&hits));
	long v = 5;
	printf("sub %ld and %ld or %ld xor %ld\n", __atomic_sub_fetch(&v, 2, __ATOMIC_RELAXED),
	       __atomic_and_fetch(&v, 6, __ATOMIC_RELAXED), __atomic_or_fetch(&v, 9, __ATOMIC_RELAXED),
	       __atomic_xor_fetch(&v, 1, __ATOMIC_RELAXED));
	printf("sync %ld %d\n", __sync_fetch_and_add(&v, 10), __sync_bool_compare_and_swap(&v, 24, 1));
	return 0;
}
