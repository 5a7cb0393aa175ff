/* libatomic: the calls a compiler makes for an atomic operation it cannot
 * do in one instruction, on an object larger than 8 bytes (a
 * std::atomic<T> of a 16- or 24-byte struct) or of unknown alignment.
 * libatomic does them under a lock picked by the object's address, from a
 * table of locks; so does this file, with pthread mutexes. The program then
 * gets the same mutual exclusion and the same ordering it gets natively,
 * the scheduler switches at each such operation, and the race detector
 * sees the copies as accesses made under that lock: two atomic operations
 * on one object never race, and a plain access beside them does.
 *
 * Their names are the compiler's builtins, so the functions are defined
 * under other names and given those as assembler labels, as libatomic's
 * sources do. */
#include <pthread.h>
#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <string.h>

#define NLOCKS 64

static pthread_mutex_t locks[NLOCKS] = {[0 ... NLOCKS - 1] = PTHREAD_MUTEX_INITIALIZER};

/* lockFor is the lock of the object at p: libatomic hashes by address, so
 * that operations on one object always take one lock. */
static pthread_mutex_t *lockFor(const void *p) { return &locks[((uintptr_t)p >> 4) % NLOCKS]; }

void augur_atomic_load(size_t n, const void *src, void *dst, int order) __asm__("__atomic_load");
void augur_atomic_load(size_t n, const void *src, void *dst, int order) {
	pthread_mutex_t *l = lockFor(src);
	pthread_mutex_lock(l);
	memcpy(dst, src, n);
	pthread_mutex_unlock(l);
}

void augur_atomic_store(size_t n, void *dst, const void *src, int order) __asm__("__atomic_store");
void augur_atomic_store(size_t n, void *dst, const void *src, int order) {
	pthread_mutex_t *l = lockFor(dst);
	pthread_mutex_lock(l);
	memcpy(dst, src, n);
	pthread_mutex_unlock(l);
}

void augur_atomic_exchange(size_t n, void *obj, const void *val, void *old, int order) __asm__("__atomic_exchange");
void augur_atomic_exchange(size_t n, void *obj, const void *val, void *old, int order) {
	pthread_mutex_t *l = lockFor(obj);
	pthread_mutex_lock(l);
	memcpy(old, obj, n);
	memcpy(obj, val, n);
	pthread_mutex_unlock(l);
}

/* compare-exchange writes desired over obj when obj holds expected's
 * bytes, and otherwise copies obj into expected. */
bool augur_atomic_compare_exchange(size_t n, void *obj, void *expected, const void *desired, int success,
                                   int failure) __asm__("__atomic_compare_exchange");
bool augur_atomic_compare_exchange(size_t n, void *obj, void *expected, const void *desired, int success,
                                   int failure) {
	pthread_mutex_t *l = lockFor(obj);
	pthread_mutex_lock(l);
	bool same = memcmp(obj, expected, n) == 0;
	if (same)
		memcpy(obj, desired, n);
	else
		memcpy(expected, obj, n);
	pthread_mutex_unlock(l);
	return same;
}

/* Objects of 1, 2, 4 and 8 bytes are lock-free when aligned (the
 * instructions the compiler emits inline); the others take a lock here. */
bool augur_atomic_is_lock_free(size_t n, const void *p) __asm__("__atomic_is_lock_free");
bool augur_atomic_is_lock_free(size_t n, const void *p) {
	return (n == 1 || n == 2 || n == 4 || n == 8) && ((uintptr_t)p & (n - 1)) == 0;
}

/* The sized calls, for an operand of N bytes of type T: made for 16-byte
 * objects (no cmpxchg16b without -mcx16) and for smaller ones of unknown
 * alignment. */
#define SIZED(N, T)                                                                                                   \
	T augur_atomic_load_##N(const T *p, int order) __asm__("__atomic_load_" #N);                                  \
	T augur_atomic_load_##N(const T *p, int order) {                                                              \
		T v;                                                                                                  \
		augur_atomic_load(N, p, &v, order);                                                                   \
		return v;                                                                                             \
	}                                                                                                             \
	void augur_atomic_store_##N(T *p, T v, int order) __asm__("__atomic_store_" #N);                              \
	void augur_atomic_store_##N(T *p, T v, int order) { augur_atomic_store(N, p, &v, order); }                    \
	T augur_atomic_exchange_##N(T *p, T v, int order) __asm__("__atomic_exchange_" #N);                           \
	T augur_atomic_exchange_##N(T *p, T v, int order) {                                                           \
		T old;                                                                                                \
		augur_atomic_exchange(N, p, &v, &old, order);                                                         \
		return old;                                                                                           \
	}                                                                                                             \
	bool augur_atomic_compare_exchange_##N(T *p, T *expected, T desired, int s, int f)                            \
	    __asm__("__atomic_compare_exchange_" #N);                                                                 \
	bool augur_atomic_compare_exchange_##N(T *p, T *expected, T desired, int s, int f) {                          \
		return augur_atomic_compare_exchange(N, p, expected, &desired, s, f);                                 \
	}                                                                                                             \
	FETCH(N, T, add, old + v)                                                                                     \
	FETCH(N, T, sub, old - v)                                                                                     \
	FETCH(N, T, and, old & v)                                                                                     \
	FETCH(N, T, or, old | v)                                                                                      \
	FETCH(N, T, xor, old ^ v)                                                                                     \
	FETCH(N, T, nand, ~(old & v))

/* FETCH defines __atomic_fetch_OP_N, which returns the old value, and
 * __atomic_OP_fetch_N, which returns the new one. */
#define FETCH(N, T, OP, EXPR)                                                                                         \
	static T update_##OP##_##N(T *p, T v, T *now) {                                                               \
		pthread_mutex_t *l = lockFor(p);                                                                      \
		pthread_mutex_lock(l);                                                                                \
		T old = *p;                                                                                           \
		*now = *p = (T)(EXPR);                                                                                \
		pthread_mutex_unlock(l);                                                                              \
		return old;                                                                                           \
	}                                                                                                             \
	T augur_atomic_fetch_##OP##_##N(T *p, T v, int order) __asm__("__atomic_fetch_" #OP "_" #N);                  \
	T augur_atomic_fetch_##OP##_##N(T *p, T v, int order) {                                                       \
		T now;                                                                                                \
		return update_##OP##_##N(p, v, &now);                                                                 \
	}                                                                                                             \
	T augur_atomic_##OP##_fetch_##N(T *p, T v, int order) __asm__("__atomic_" #OP "_fetch_" #N);                  \
	T augur_atomic_##OP##_fetch_##N(T *p, T v, int order) {                                                       \
		T now;                                                                                                \
		update_##OP##_##N(p, v, &now);                                                                        \
		return now;                                                                                           \
	}

SIZED(1, uint8_t)
SIZED(2, uint16_t)
SIZED(4, uint32_t)
SIZED(8, uint64_t)
SIZED(16, unsigned __int128)
