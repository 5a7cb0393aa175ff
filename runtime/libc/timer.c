/* Timers on augur's virtual clock: alarm, setitimer's ITIMER_REAL and
 * timer_create's timers.
 *
 * Time in augur passes when a thread sleeps, and with the instructions
 * it runs; nothing interrupts a running thread. So a timer that signals
 * expires where a program waits for a signal: pause and sigsuspend
 * (signal.c) sleep until the earliest armed one expires, re-arm it by its
 * interval, and raise its signal, whose handler then runs in the waiting
 * thread as natively. sleep and nanosleep are not interrupted by a timer,
 * and a loop that polls a flag a handler sets, without waiting, never
 * sees the handler run.
 *
 * A timer_create timer with SIGEV_THREAD runs its function in a thread of
 * its own at each expiry, as glibc's do. ITIMER_VIRTUAL and ITIMER_PROF
 * arm nothing (getitimer reports them disarmed). */
#define _GNU_SOURCE
#include <errno.h>
#include <pthread.h>
#include <signal.h>
#include <stdint.h>
#include <string.h>
#include <sys/time.h>
#include <time.h>
#include <unistd.h>

#define WEAK __attribute__((weak))
#define NTIMERS 32

struct vtimer {
	int used;
	long long expiry;   /* ns on CLOCK_MONOTONIC; 0: disarmed */
	long long interval; /* ns; 0: once */
	struct sigevent ev;
	int generation; /* counts settings, so a SIGEV_THREAD runner of an old one stops */
};

/* timers[0] is the process's real-time timer: alarm's and ITIMER_REAL's. */
static struct vtimer timers[NTIMERS] = {{.used = 1, .ev = {.sigev_notify = SIGEV_SIGNAL, .sigev_signo = SIGALRM}}};
static pthread_mutex_t timersLock = PTHREAD_MUTEX_INITIALIZER;

static long long now_ns(void) {
	struct timespec ts;
	clock_gettime(CLOCK_MONOTONIC, &ts);
	return ts.tv_sec * 1000000000LL + ts.tv_nsec;
}
static long long ns_of(const struct timespec *ts) { return ts->tv_sec * 1000000000LL + ts->tv_nsec; }
static struct timespec ts_of(long long ns) { return (struct timespec){ns / 1000000000LL, ns % 1000000000LL}; }
static long long us_ns(const struct timeval *tv) { return tv->tv_sec * 1000000000LL + tv->tv_usec * 1000LL; }
static struct timeval tv_of(long long ns) {
	/* Rounded up, as the kernel reports what is left, so an armed timer
	 * never reads as disarmed. */
	long long us = (ns + 999) / 1000;
	return (struct timeval){us / 1000000, us % 1000000};
}

/* left is what remains of timer t (0: disarmed). timersLock is held. */
static long long left(const struct vtimer *t) {
	if (!t->expiry)
		return 0;
	long long l = t->expiry - now_ns();
	return l > 0 ? l : 1;
}

static void *runThreadTimer(void *arg);

/* arm sets timer t to expire after value ns (0: disarm), then every
 * interval ns. timersLock is held. */
static void arm(int t, long long value, long long interval) {
	struct vtimer *v = &timers[t];
	v->generation++;
	v->expiry = value > 0 ? now_ns() + value : 0;
	v->interval = value > 0 ? interval : 0;
	if (v->expiry && v->ev.sigev_notify == SIGEV_THREAD) {
		pthread_t th;
		pthread_attr_t attr;
		pthread_attr_init(&attr);
		pthread_attr_setdetachstate(&attr, PTHREAD_CREATE_DETACHED);
		pthread_create(&th, &attr, runThreadTimer, (void *)(intptr_t)(t << 16 | (v->generation & 0xffff)));
		pthread_attr_destroy(&attr);
	}
}

/* runThreadTimer is the thread of a SIGEV_THREAD timer's setting: at each
 * expiry it calls the timer's function, until the timer is set again or
 * deleted. */
static void *runThreadTimer(void *arg) {
	int t = (int)((intptr_t)arg >> 16), gen = (int)((intptr_t)arg & 0xffff);
	pthread_mutex_lock(&timersLock);
	for (;;) {
		struct vtimer *v = &timers[t];
		if (!v->used || (v->generation & 0xffff) != gen || !v->expiry)
			break;
		long long wait = v->expiry - now_ns();
		if (wait > 0) {
			struct timespec until = ts_of(v->expiry);
			pthread_mutex_unlock(&timersLock);
			clock_nanosleep(CLOCK_MONOTONIC, TIMER_ABSTIME, &until, NULL);
			pthread_mutex_lock(&timersLock);
			continue; /* it may have been set again meanwhile */
		}
		struct sigevent ev = v->ev;
		v->expiry = v->interval ? v->expiry + v->interval : 0;
		pthread_mutex_unlock(&timersLock);
		ev.sigev_notify_function(ev.sigev_value);
		pthread_mutex_lock(&timersLock);
	}
	pthread_mutex_unlock(&timersLock);
	return NULL;
}

/* __augur_timer_wait sleeps until the earliest armed timer that sends a
 * signal expires, re-arms it by its interval (or disarms it) and returns
 * its signal; 0 at once when no such timer is armed. pause and sigsuspend
 * call it. */
int __augur_timer_wait(void) {
	pthread_mutex_lock(&timersLock);
	for (;;) {
		int first = -1;
		for (int i = 0; i < NTIMERS; i++)
			if (timers[i].used && timers[i].expiry && timers[i].ev.sigev_notify == SIGEV_SIGNAL &&
			    (first < 0 || timers[i].expiry < timers[first].expiry))
				first = i;
		if (first < 0) {
			pthread_mutex_unlock(&timersLock);
			return 0;
		}
		struct vtimer *v = &timers[first];
		if (v->expiry > now_ns()) {
			struct timespec until = ts_of(v->expiry);
			pthread_mutex_unlock(&timersLock);
			clock_nanosleep(CLOCK_MONOTONIC, TIMER_ABSTIME, &until, NULL);
			pthread_mutex_lock(&timersLock);
			continue; /* another thread may have set it meanwhile */
		}
		int sig = v->ev.sigev_signo;
		v->expiry = v->interval ? v->expiry + v->interval : 0;
		pthread_mutex_unlock(&timersLock);
		return sig;
	}
}

WEAK unsigned alarm(unsigned seconds) {
	pthread_mutex_lock(&timersLock);
	struct timeval old = tv_of(left(&timers[0]));
	arm(0, seconds * 1000000000LL, 0);
	pthread_mutex_unlock(&timersLock);
	/* glibc's rounding: a remainder under a second, or half a second
	 * past a whole one, counts as one more. */
	unsigned r = old.tv_sec;
	if ((old.tv_sec == 0 && old.tv_usec != 0) || old.tv_usec >= 500000)
		r++;
	return r;
}

WEAK int setitimer(__itimer_which_t which, const struct itimerval *v, struct itimerval *old) {
	if ((int)which < ITIMER_REAL || (int)which > ITIMER_PROF ||
	    (v && (v->it_value.tv_usec < 0 || v->it_value.tv_usec >= 1000000 || v->it_interval.tv_usec < 0 ||
		   v->it_interval.tv_usec >= 1000000))) {
		errno = EINVAL;
		return -1;
	}
	if (old)
		memset(old, 0, sizeof *old);
	if (which != ITIMER_REAL)
		return 0;
	pthread_mutex_lock(&timersLock);
	if (old) {
		old->it_value = tv_of(left(&timers[0]));
		old->it_interval = tv_of(timers[0].interval);
	}
	if (v)
		arm(0, us_ns(&v->it_value), us_ns(&v->it_interval));
	pthread_mutex_unlock(&timersLock);
	return 0;
}
WEAK int getitimer(__itimer_which_t which, struct itimerval *v) { return setitimer(which, NULL, v); }

/* lockTimer takes timersLock and returns the timer id names; for an id
 * that names none it returns NULL with the lock released and errno
 * EINVAL. timer_t is a pointer in glibc's headers; augur's are the
 * table's indices, from 1. */
static struct vtimer *lockTimer(timer_t id) {
	intptr_t i = (intptr_t)id;
	pthread_mutex_lock(&timersLock);
	if (i > 0 && i < NTIMERS && timers[i].used)
		return &timers[i];
	pthread_mutex_unlock(&timersLock);
	errno = EINVAL;
	return NULL;
}

WEAK int timer_create(clockid_t clock, struct sigevent *ev, timer_t *id) {
	if (clock != CLOCK_REALTIME && clock != CLOCK_MONOTONIC && clock != CLOCK_BOOTTIME) {
		errno = clock == CLOCK_PROCESS_CPUTIME_ID || clock == CLOCK_THREAD_CPUTIME_ID ? ENOTSUP : EINVAL;
		return -1;
	}
	if (ev && ev->sigev_notify != SIGEV_NONE && ev->sigev_notify != SIGEV_SIGNAL && ev->sigev_notify != SIGEV_THREAD) {
		errno = EINVAL;
		return -1;
	}
	pthread_mutex_lock(&timersLock);
	for (int i = 1; i < NTIMERS; i++)
		if (!timers[i].used) {
			timers[i] = (struct vtimer){.used = 1};
			if (ev)
				timers[i].ev = *ev;
			else
				timers[i].ev = (struct sigevent){.sigev_notify = SIGEV_SIGNAL, .sigev_signo = SIGALRM};
			pthread_mutex_unlock(&timersLock);
			*id = (timer_t)(intptr_t)i;
			return 0;
		}
	pthread_mutex_unlock(&timersLock);
	errno = EAGAIN;
	return -1;
}

WEAK int timer_settime(timer_t id, int flags, const struct itimerspec *v, struct itimerspec *old) {
	if (!v || v->it_value.tv_nsec < 0 || v->it_value.tv_nsec >= 1000000000L || v->it_interval.tv_nsec < 0 ||
	    v->it_interval.tv_nsec >= 1000000000L) {
		errno = EINVAL;
		return -1;
	}
	struct vtimer *t = lockTimer(id);
	if (!t)
		return -1;
	if (old) {
		old->it_value = ts_of(left(t));
		old->it_interval = ts_of(t->interval);
	}
	long long value = ns_of(&v->it_value);
	if (value && (flags & TIMER_ABSTIME)) {
		value -= now_ns();
		if (value <= 0)
			value = 1; /* already past: expires at once */
	}
	arm((int)(t - timers), value, ns_of(&v->it_interval));
	pthread_mutex_unlock(&timersLock);
	return 0;
}

WEAK int timer_gettime(timer_t id, struct itimerspec *v) {
	struct vtimer *t = lockTimer(id);
	if (!t)
		return -1;
	v->it_value = ts_of(left(t));
	v->it_interval = ts_of(t->interval);
	pthread_mutex_unlock(&timersLock);
	return 0;
}

WEAK int timer_getoverrun(timer_t id) { return 0; }

WEAK int timer_delete(timer_t id) {
	struct vtimer *t = lockTimer(id);
	if (!t)
		return -1;
	t->used = 0;
	t->expiry = 0;
	t->generation++;
	pthread_mutex_unlock(&timersLock);
	return 0;
}
