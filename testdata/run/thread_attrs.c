/* Thread attributes read back what was set, invalid values are refused,
 * a detached thread made from an attribute cannot be joined, and
 * sched_yield, sysconf and the processor count answer. */
#include <errno.h>
#include <pthread.h>
#include <sched.h>
#include <stdio.h>
#include <unistd.h>

static int ran;

static void *work(void *arg) {
	__atomic_fetch_add(&ran, *(int *)arg, __ATOMIC_SEQ_CST);
	sched_yield();
	return NULL;
}

int main(void) {
	pthread_attr_t a;
	pthread_attr_init(&a);
	size_t stack, guard;
	int detach, scope, inherit, policy;
	pthread_attr_getstacksize(&a, &stack);
	pthread_attr_getdetachstate(&a, &detach);
	printf("defaults: detach %d inherit-ok %d\n", detach, pthread_attr_getinheritsched(&a, &inherit) == 0);
	printf("set stack 1 MiB: %d, too small: %d\n", pthread_attr_setstacksize(&a, 1 << 20),
	       pthread_attr_setstacksize(&a, 1) == EINVAL);
	pthread_attr_getstacksize(&a, &stack);
	pthread_attr_setguardsize(&a, 8192);
	pthread_attr_getguardsize(&a, &guard);
	printf("stack %zu guard %zu\n", stack, guard);
	printf("scope system %d, process %d\n", pthread_attr_setscope(&a, PTHREAD_SCOPE_SYSTEM),
	       pthread_attr_setscope(&a, PTHREAD_SCOPE_PROCESS) == ENOTSUP);
	pthread_attr_getscope(&a, &scope);
	pthread_attr_setschedpolicy(&a, SCHED_FIFO);
	pthread_attr_getschedpolicy(&a, &policy);
	struct sched_param p = {.sched_priority = 10};
	pthread_attr_setschedparam(&a, &p);
	struct sched_param back;
	pthread_attr_getschedparam(&a, &back);
	printf("scope %d policy %d priority %d, bad detach state %d\n", scope, policy, back.sched_priority,
	       pthread_attr_setdetachstate(&a, 42) == EINVAL);

	int one = 1, two = 2;
	pthread_t t;
	pthread_attr_t joinable;
	pthread_attr_init(&joinable);
	pthread_create(&t, &joinable, work, &one);
	pthread_join(t, NULL);
	pthread_attr_setdetachstate(&joinable, PTHREAD_CREATE_DETACHED);
	pthread_attr_getdetachstate(&joinable, &detach);
	printf("detached state %d\n", detach == PTHREAD_CREATE_DETACHED);
	pthread_attr_destroy(&a);
	pthread_attr_destroy(&joinable);
	pthread_t d;
	pthread_attr_t da;
	pthread_attr_init(&da);
	pthread_attr_setdetachstate(&da, PTHREAD_CREATE_DETACHED);
	pthread_create(&d, &da, work, &two);
	while (__atomic_load_n(&ran, __ATOMIC_SEQ_CST) < 3)
		sched_yield();
	printf("ran %d, yield %d, page size %ld\n", ran, sched_yield(), sysconf(_SC_PAGESIZE));
	return 0;
}
