/* C11 threads (<threads.h>): threads, mutexes, condition variables,
 * thread-specific storage and call_once, written over the pthread models
 * as glibc writes them. The objects have the pthread objects' layout
 * (glibc's mtx_t is a pthread_mutex_t's bytes, cnd_t a pthread_cond_t's,
 * tss_t a pthread_key_t, once_flag a pthread_once_t), so the scheduler,
 * the race detector and deadlock reports see the pthread calls these
 * make: a mtx_lock is a pthread_mutex_lock. The results map onto C11's
 * thrd_success, thrd_busy, thrd_timedout, thrd_nomem and thrd_error. */
#define _GNU_SOURCE
#include <errno.h>
#include <pthread.h>
#include <stdint.h>
#include <threads.h>
#include <time.h>

#define WEAK __attribute__((weak))

_Static_assert(sizeof(mtx_t) == sizeof(pthread_mutex_t), "mtx_t layout");
_Static_assert(sizeof(cnd_t) == sizeof(pthread_cond_t), "cnd_t layout");
_Static_assert(sizeof(tss_t) == sizeof(pthread_key_t), "tss_t layout");
_Static_assert(sizeof(once_flag) == sizeof(pthread_once_t), "once_flag layout");
_Static_assert(sizeof(thrd_t) == sizeof(pthread_t), "thrd_t layout");

/* result maps a pthread error number onto C11's results. */
static int result(int err) {
	switch (err) {
	case 0:
		return thrd_success;
	case EBUSY:
		return thrd_busy;
	case ETIMEDOUT:
		return thrd_timedout;
	case ENOMEM:
	case EAGAIN:
		return thrd_nomem;
	default:
		return thrd_error;
	}
}

/* A C11 thread's function returns int where pthread's returns void *:
 * the machine starts it as it starts any thread, and the int it returns
 * is the thread's exit value, which thrd_join narrows back. */
WEAK int thrd_create(thrd_t *thr, thrd_start_t func, void *arg) {
	return result(pthread_create((pthread_t *)thr, NULL, (void *(*)(void *))func, arg));
}
WEAK int thrd_equal(thrd_t a, thrd_t b) { return pthread_equal(a, b); }
WEAK thrd_t thrd_current(void) { return pthread_self(); }
WEAK int thrd_sleep(const struct timespec *d, struct timespec *rem) {
	if (nanosleep(d, rem) == 0)
		return 0;
	return errno == EINTR ? -1 : -2;
}
WEAK void thrd_exit(int res) { pthread_exit((void *)(intptr_t)res); }
WEAK int thrd_detach(thrd_t thr) { return result(pthread_detach(thr)); }
WEAK int thrd_join(thrd_t thr, int *res) {
	void *v;
	int err = pthread_join(thr, &v);
	if (err == 0 && res)
		*res = (int)(intptr_t)v;
	return result(err);
}
WEAK void thrd_yield(void) { sched_yield(); }

/* As glibc's: a type other than C11's four makes a plain mutex. */
WEAK int mtx_init(mtx_t *m, int type) {
	pthread_mutexattr_t attr;
	pthread_mutexattr_init(&attr);
	if (type == (mtx_plain | mtx_recursive) || type == (mtx_timed | mtx_recursive))
		pthread_mutexattr_settype(&attr, PTHREAD_MUTEX_RECURSIVE);
	int err = pthread_mutex_init((pthread_mutex_t *)m, &attr);
	pthread_mutexattr_destroy(&attr);
	return result(err);
}
WEAK int mtx_lock(mtx_t *m) { return result(pthread_mutex_lock((pthread_mutex_t *)m)); }
WEAK int mtx_timedlock(mtx_t *restrict m, const struct timespec *restrict t) {
	return result(pthread_mutex_timedlock((pthread_mutex_t *)m, t));
}
WEAK int mtx_trylock(mtx_t *m) { return result(pthread_mutex_trylock((pthread_mutex_t *)m)); }
WEAK int mtx_unlock(mtx_t *m) { return result(pthread_mutex_unlock((pthread_mutex_t *)m)); }
WEAK void mtx_destroy(mtx_t *m) { pthread_mutex_destroy((pthread_mutex_t *)m); }

WEAK int cnd_init(cnd_t *c) { return result(pthread_cond_init((pthread_cond_t *)c, NULL)); }
WEAK int cnd_signal(cnd_t *c) { return result(pthread_cond_signal((pthread_cond_t *)c)); }
WEAK int cnd_broadcast(cnd_t *c) { return result(pthread_cond_broadcast((pthread_cond_t *)c)); }
WEAK int cnd_wait(cnd_t *c, mtx_t *m) {
	return result(pthread_cond_wait((pthread_cond_t *)c, (pthread_mutex_t *)m));
}
WEAK int cnd_timedwait(cnd_t *restrict c, mtx_t *restrict m, const struct timespec *restrict t) {
	return result(pthread_cond_timedwait((pthread_cond_t *)c, (pthread_mutex_t *)m, t));
}
WEAK void cnd_destroy(cnd_t *c) { pthread_cond_destroy((pthread_cond_t *)c); }

WEAK int tss_create(tss_t *key, tss_dtor_t dtor) { return result(pthread_key_create(key, dtor)); }
WEAK void *tss_get(tss_t key) { return pthread_getspecific(key); }
WEAK int tss_set(tss_t key, void *v) { return result(pthread_setspecific(key, v)); }
WEAK void tss_delete(tss_t key) { pthread_key_delete(key); }

WEAK void call_once(once_flag *flag, void (*func)(void)) { pthread_once((pthread_once_t *)flag, func); }
