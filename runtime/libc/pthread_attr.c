/* Thread attributes. pthread_attr_t is plain data here: the detach state
 * at offset 0 (read by the VM's pthread_create), then the values set, so a
 * program reads back what it wrote. Stack size, guard size and scheduling
 * do not change how augur runs the thread (every thread has an 8 MiB
 * stack). */
#define _GNU_SOURCE
#include <errno.h>
#include <pthread.h>
#include <sched.h>
#include <string.h>

#define WEAK __attribute__((weak))

struct attr {
	int detach;
	int scope;
	size_t stacksize;
	size_t guardsize;
	int inherit;
	int policy;
	struct sched_param param;
	void *stackaddr;
};

_Static_assert(sizeof(struct attr) <= sizeof(pthread_attr_t), "attr layout");

#define A(p) ((struct attr *)(p))

/* glibc's PTHREAD_STACK_MIN, a call to sysconf since 2.34. */
#define STACK_MIN 16384

WEAK int pthread_attr_init(pthread_attr_t *a) {
	memset(a, 0, sizeof *a);
	A(a)->stacksize = 8 << 20;
	A(a)->guardsize = 4096;
	A(a)->inherit = PTHREAD_INHERIT_SCHED;
	return 0;
}
WEAK int pthread_attr_destroy(pthread_attr_t *a) { return 0; }

WEAK int pthread_attr_setdetachstate(pthread_attr_t *a, int s) {
	if (s != PTHREAD_CREATE_JOINABLE && s != PTHREAD_CREATE_DETACHED)
		return EINVAL;
	A(a)->detach = s;
	return 0;
}
WEAK int pthread_attr_getdetachstate(const pthread_attr_t *a, int *s) {
	*s = A(a)->detach;
	return 0;
}
WEAK int pthread_attr_setstacksize(pthread_attr_t *a, size_t n) {
	if (n < STACK_MIN)
		return EINVAL;
	A(a)->stacksize = n;
	return 0;
}
WEAK int pthread_attr_getstacksize(const pthread_attr_t *a, size_t *n) {
	*n = A(a)->stacksize;
	return 0;
}
WEAK int pthread_attr_setstack(pthread_attr_t *a, void *addr, size_t n) {
	if (n < STACK_MIN)
		return EINVAL;
	A(a)->stackaddr = addr;
	A(a)->stacksize = n;
	return 0;
}
WEAK int pthread_attr_getstack(const pthread_attr_t *a, void **addr, size_t *n) {
	*addr = A(a)->stackaddr;
	*n = A(a)->stacksize;
	return 0;
}
WEAK int pthread_attr_setguardsize(pthread_attr_t *a, size_t n) {
	A(a)->guardsize = n;
	return 0;
}
WEAK int pthread_attr_getguardsize(const pthread_attr_t *a, size_t *n) {
	*n = A(a)->guardsize;
	return 0;
}
WEAK int pthread_attr_setscope(pthread_attr_t *a, int s) {
	if (s == PTHREAD_SCOPE_PROCESS)
		return ENOTSUP; /* as on Linux */
	if (s != PTHREAD_SCOPE_SYSTEM)
		return EINVAL;
	A(a)->scope = s;
	return 0;
}
WEAK int pthread_attr_getscope(const pthread_attr_t *a, int *s) {
	*s = A(a)->scope;
	return 0;
}
WEAK int pthread_attr_setinheritsched(pthread_attr_t *a, int s) {
	if (s != PTHREAD_INHERIT_SCHED && s != PTHREAD_EXPLICIT_SCHED)
		return EINVAL;
	A(a)->inherit = s;
	return 0;
}
WEAK int pthread_attr_getinheritsched(const pthread_attr_t *a, int *s) {
	*s = A(a)->inherit;
	return 0;
}
WEAK int pthread_attr_setschedpolicy(pthread_attr_t *a, int p) {
	if (p != SCHED_OTHER && p != SCHED_FIFO && p != SCHED_RR && p != SCHED_BATCH && p != SCHED_IDLE)
		return EINVAL;
	A(a)->policy = p;
	return 0;
}
WEAK int pthread_attr_getschedpolicy(const pthread_attr_t *a, int *p) {
	*p = A(a)->policy;
	return 0;
}
WEAK int pthread_attr_setschedparam(pthread_attr_t *a, const struct sched_param *p) {
	A(a)->param = *p;
	return 0;
}
WEAK int pthread_attr_getschedparam(const pthread_attr_t *a, struct sched_param *p) {
	*p = A(a)->param;
	return 0;
}
WEAK int pthread_getattr_np(pthread_t t, pthread_attr_t *a) { return pthread_attr_init(a); }
WEAK int pthread_getschedparam(pthread_t t, int *policy, struct sched_param *p) {
	*policy = SCHED_OTHER;
	p->sched_priority = 0;
	return 0;
}
WEAK int sched_get_priority_min(int policy) { return policy == SCHED_FIFO || policy == SCHED_RR ? 1 : 0; }
WEAK int sched_get_priority_max(int policy) { return policy == SCHED_FIFO || policy == SCHED_RR ? 99 : 0; }
