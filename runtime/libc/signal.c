/* Signals a program sends itself. Handlers set with signal or sigaction
 * run when raise (or kill of the process itself) delivers their signal;
 * a signal whose action is the default ends the process as it would
 * natively (abort for SIGABRT, otherwise death by that signal, through the
 * VM's __augur_signal_exit); ignored signals do nothing. Signals from
 * outside (alarm, a timer, a fault) are never delivered: alarm returns 0
 * and arms nothing. */
#define _GNU_SOURCE
#include <errno.h>
#include <pthread.h>
#include <signal.h>
#include <sys/time.h>
#include <time.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#define WEAK __attribute__((weak))

void __augur_signal_exit(int sig) __attribute__((noreturn));

static struct sigaction actions[NSIG];
static pthread_mutex_t actionsLock = PTHREAD_MUTEX_INITIALIZER;

static int valid(int sig) { return sig > 0 && sig < NSIG; }

WEAK int sigaction(int sig, const struct sigaction *act, struct sigaction *old) {
	if (!valid(sig) || (act && (sig == SIGKILL || sig == SIGSTOP))) {
		errno = EINVAL;
		return -1;
	}
	pthread_mutex_lock(&actionsLock);
	if (old)
		*old = actions[sig];
	if (act)
		actions[sig] = *act;
	pthread_mutex_unlock(&actionsLock);
	return 0;
}

WEAK sighandler_t signal(int sig, sighandler_t handler) {
	struct sigaction act, old;
	memset(&act, 0, sizeof act);
	act.sa_handler = handler;
	if (sigaction(sig, &act, &old) < 0)
		return SIG_ERR;
	return old.sa_handler;
}

static int ignoredByDefault(int sig) { return sig == SIGCHLD || sig == SIGURG || sig == SIGWINCH || sig == SIGCONT; }

WEAK int raise(int sig) {
	if (sig == 0)
		return 0; /* the null signal: kill(getpid(), 0) asks whether the process exists */
	if (!valid(sig)) {
		errno = EINVAL;
		return -1;
	}
	pthread_mutex_lock(&actionsLock);
	struct sigaction act = actions[sig];
	if (act.sa_flags & SA_RESETHAND)
		actions[sig].sa_handler = SIG_DFL;
	pthread_mutex_unlock(&actionsLock);
	if (act.sa_flags & SA_SIGINFO) {
		siginfo_t info;
		memset(&info, 0, sizeof info);
		info.si_signo = sig;
		info.si_code = SI_USER;
		act.sa_sigaction(sig, &info, NULL);
		return 0;
	}
	if (act.sa_handler == SIG_IGN || (act.sa_handler == SIG_DFL && ignoredByDefault(sig)))
		return 0;
	if (act.sa_handler == SIG_DFL) {
		if (sig == SIGABRT)
			abort();
		__augur_signal_exit(sig);
	}
	act.sa_handler(sig);
	return 0;
}

WEAK unsigned alarm(unsigned seconds) { return 0; }
WEAK int pause(void) {
	errno = EINTR;
	return -1;
}

WEAK int sigemptyset(sigset_t *s) {
	memset(s, 0, sizeof *s);
	return 0;
}
WEAK int sigfillset(sigset_t *s) {
	memset(s, 0xff, sizeof *s);
	return 0;
}
static int bit(const sigset_t *s, int sig, unsigned long **word, unsigned long *mask) {
	if (!valid(sig)) {
		errno = EINVAL;
		return -1;
	}
	*word = (unsigned long *)s + (sig - 1) / (8 * sizeof(unsigned long));
	*mask = 1UL << ((sig - 1) % (8 * sizeof(unsigned long)));
	return 0;
}
WEAK int sigaddset(sigset_t *s, int sig) {
	unsigned long *w, m;
	if (bit(s, sig, &w, &m) < 0)
		return -1;
	*w |= m;
	return 0;
}
WEAK int sigdelset(sigset_t *s, int sig) {
	unsigned long *w, m;
	if (bit(s, sig, &w, &m) < 0)
		return -1;
	*w &= ~m;
	return 0;
}
WEAK int sigismember(const sigset_t *s, int sig) {
	unsigned long *w, m;
	if (bit(s, sig, &w, &m) < 0)
		return -1;
	return (*w & m) != 0;
}
/* Signal masks: no signal arrives asynchronously, so a mask changes
 * nothing; the old mask reads as empty. */
WEAK int sigprocmask(int how, const sigset_t *set, sigset_t *old) {
	if (old)
		sigemptyset(old);
	return 0;
}
WEAK int pthread_sigmask(int how, const sigset_t *set, sigset_t *old) { return sigprocmask(how, set, old); }

/* The System V signal calls (memcached ignores SIGPIPE with sigignore). */
WEAK int sigignore(int sig) { return signal(sig, SIG_IGN) == SIG_ERR ? -1 : 0; }
WEAK sighandler_t sigset(int sig, sighandler_t handler) { return signal(sig, handler); }
WEAK int sighold(int sig) { return valid(sig) ? 0 : (errno = EINVAL, -1); }
WEAK int sigrelse(int sig) { return valid(sig) ? 0 : (errno = EINVAL, -1); }

/* SIGRTMIN and SIGRTMAX are calls in glibc's headers: glibc keeps the
 * first two real-time signals for itself. */
WEAK int __libc_current_sigrtmin(void) { return 34; }
WEAK int __libc_current_sigrtmax(void) { return 64; }

/* Interval timers, like alarm, arm nothing: no signal comes from outside
 * the program. getitimer reports a timer disarmed; timer_create makes
 * timers that never expire. */
WEAK int setitimer(__itimer_which_t which, const struct itimerval *v, struct itimerval *old) {
	if ((int)which < ITIMER_REAL || (int)which > ITIMER_PROF) {
		errno = EINVAL;
		return -1;
	}
	if (old)
		memset(old, 0, sizeof *old);
	return 0;
}
WEAK int getitimer(__itimer_which_t which, struct itimerval *v) { return setitimer(which, NULL, v); }
WEAK int timer_create(clockid_t clock, struct sigevent *ev, timer_t *id) {
	static long next;
	*id = (timer_t)++next;
	return 0;
}
WEAK int timer_settime(timer_t id, int flags, const struct itimerspec *v, struct itimerspec *old) {
	if (old)
		memset(old, 0, sizeof *old);
	return 0;
}
WEAK int timer_gettime(timer_t id, struct itimerspec *v) {
	memset(v, 0, sizeof *v);
	return 0;
}
WEAK int timer_delete(timer_t id) { return 0; }
