/* Signals a program sends itself. Handlers set with signal or sigaction
 * run when raise (or kill of the process itself, or pthread_kill) delivers
 * their signal; a signal whose action is the default ends the process as
 * it would natively (abort for SIGABRT, otherwise death by that signal,
 * through the VM's __augur_signal_exit); ignored signals do nothing.
 *
 * A blocked signal waits, pending, until sigwait takes it or a mask change
 * unblocks it (then it is delivered at once, in the thread that unblocked
 * it). augur keeps one mask for the whole process: the usual set-up, where
 * main blocks the signals before it creates its threads and one thread
 * takes them with sigwait, has that mask in every thread. A program whose
 * threads block different signals gets the last mask any of them set, and
 * a pthread_kill reaches whichever thread waits for the signal.
 *
 * Timers (alarm, setitimer, timer_create: timer.c) signal where the
 * program waits for a signal, in pause and sigsuspend. Signals from
 * outside the program (a terminal's, another process's) never come, and a
 * sigwait for them alone waits for good. */
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

/* blocked and pending hold signal sig at bit sig-1 (glibc's sigset_t
 * keeps the first 64 signals in its first word); actionsLock guards them,
 * and pendingCond tells sigwait that one became pending. */
static unsigned long blocked, pending;
static pthread_cond_t pendingCond = PTHREAD_COND_INITIALIZER;
/* raised counts the signals raised, so pause and sigsuspend, waiting for
 * one, see another thread's; raisedCond tells them. */
static unsigned long raised;
static pthread_cond_t raisedCond = PTHREAD_COND_INITIALIZER;

/* pendingInfo is what a pending signal carries: SI_USER from raise,
 * kill and pthread_kill, SI_QUEUE and a value from sigqueue. A standard
 * signal pending twice is one; its first sender's information stays, as
 * Linux keeps it (real-time signals are not queued either: one pending
 * instance each). */
static struct {
	int code;
	union sigval value;
} pendingInfo[NSIG];

static unsigned long sigbit(int sig) { return 1UL << (sig - 1); }
static unsigned long firstWord(const sigset_t *s) { return *(const unsigned long *)s; }

static inline __attribute__((always_inline)) int deliver(int sig, int code, union sigval value);

/* send raises sig in the process, with what sigqueue or raise says of
 * it: delivered now, or pending while blocked. */
static inline __attribute__((always_inline)) int send(int sig, int code, union sigval value) {
	if (sig == 0)
		return 0; /* the null signal: kill(getpid(), 0) asks whether the process exists */
	if (!valid(sig)) {
		errno = EINVAL;
		return -1;
	}
	pthread_mutex_lock(&actionsLock);
	raised++;
	pthread_cond_broadcast(&raisedCond);
	if (blocked & sigbit(sig)) {
		if (!(pending & sigbit(sig))) {
			pendingInfo[sig].code = code;
			pendingInfo[sig].value = value;
		}
		pending |= sigbit(sig);
		pthread_cond_broadcast(&pendingCond);
		pthread_mutex_unlock(&actionsLock);
		return 0;
	}
	pthread_mutex_unlock(&actionsLock);
	return deliver(sig, code, value);
}

WEAK int raise(int sig) { return send(sig, SI_USER, (union sigval){0}); }

/* sigqueue sends a signal with a value: to the process itself, whose
 * SA_SIGINFO handler or sigwaitinfo sees si_code SI_QUEUE and the value;
 * another process is kill's answer (sandbox.c). */
WEAK int sigqueue(pid_t pid, int sig, const union sigval value) {
	if (pid != getpid())
		return kill(pid, sig);
	return send(sig, SI_QUEUE, value);
}

/* deliver runs sig's action in the calling thread. */
static inline __attribute__((always_inline)) int deliver(int sig, int code, union sigval value) {
	pthread_mutex_lock(&actionsLock);
	struct sigaction act = actions[sig];
	if (act.sa_flags & SA_RESETHAND)
		actions[sig].sa_handler = SIG_DFL;
	pthread_mutex_unlock(&actionsLock);
	if (act.sa_flags & SA_SIGINFO) {
		siginfo_t info;
		memset(&info, 0, sizeof info);
		info.si_signo = sig;
		info.si_code = code;
		info.si_pid = getpid();
		info.si_uid = getuid();
		info.si_value = value;
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

int __augur_timer_wait(void);

/* awaitSignal waits until a signal is delivered (not left pending by the
 * mask): from the earliest timer that signals, which it sleeps until, or,
 * with none armed, from another thread (raise, kill, pthread_kill). With
 * neither, it waits for good, as a pause natively does: a program whose
 * threads all wait so ends in a deadlock report. */
static void awaitSignal(void) {
	for (;;) {
		pthread_mutex_lock(&actionsLock);
		unsigned long seen = raised;
		pthread_mutex_unlock(&actionsLock);
		int sig = __augur_timer_wait();
		if (sig == 0) {
			pthread_mutex_lock(&actionsLock);
			while (raised == seen)
				pthread_cond_wait(&raisedCond, &actionsLock);
			pthread_mutex_unlock(&actionsLock);
			return;
		}
		pthread_mutex_lock(&actionsLock);
		int held = (blocked & sigbit(sig)) != 0;
		pthread_mutex_unlock(&actionsLock);
		raise(sig);
		if (!held)
			return;
	}
}

WEAK int pause(void) {
	awaitSignal();
	errno = EINTR;
	return -1;
}

/* sigsuspend waits, under mask, for a signal to be delivered, then puts
 * the mask back (which delivers what it unblocks). */
WEAK int sigsuspend(const sigset_t *mask) {
	sigset_t old;
	pthread_mutex_lock(&actionsLock);
	int due = (pending & ~firstWord(mask)) != 0;
	pthread_mutex_unlock(&actionsLock);
	sigprocmask(SIG_SETMASK, mask, &old); /* delivers those */
	if (!due)
		awaitSignal();
	sigprocmask(SIG_SETMASK, &old, NULL);
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
/* The process's mask (see the top of this file). SIGKILL and SIGSTOP
 * cannot be blocked; signals left pending by the change are delivered
 * before it returns. */
WEAK int sigprocmask(int how, const sigset_t *set, sigset_t *old) {
	if (set && how != SIG_BLOCK && how != SIG_UNBLOCK && how != SIG_SETMASK) {
		errno = EINVAL;
		return -1;
	}
	pthread_mutex_lock(&actionsLock);
	if (old) {
		sigemptyset(old);
		*(unsigned long *)old = blocked;
	}
	if (set) {
		unsigned long s = firstWord(set);
		if (how == SIG_BLOCK)
			blocked |= s;
		else if (how == SIG_UNBLOCK)
			blocked &= ~s;
		else
			blocked = s;
		blocked &= ~(sigbit(SIGKILL) | sigbit(SIGSTOP));
	}
	unsigned long due = pending & ~blocked;
	pending &= ~due;
	pthread_mutex_unlock(&actionsLock);
	for (int sig = 1; due; sig++)
		if (due & sigbit(sig)) {
			due &= ~sigbit(sig);
			deliver(sig, pendingInfo[sig].code, pendingInfo[sig].value);
		}
	return 0;
}
WEAK int pthread_sigmask(int how, const sigset_t *set, sigset_t *old) {
	return sigprocmask(how, set, old) == 0 ? 0 : errno;
}

WEAK int sigpending(sigset_t *set) {
	pthread_mutex_lock(&actionsLock);
	sigemptyset(set);
	*(unsigned long *)set = pending;
	pthread_mutex_unlock(&actionsLock);
	return 0;
}

/* takeSignal waits until a signal of set is pending, takes the lowest and
 * returns it, with what it carries in info when given. */
static int takeSignal(const sigset_t *set, siginfo_t *info) {
	unsigned long want = firstWord(set);
	pthread_mutex_lock(&actionsLock);
	while (!(pending & want))
		pthread_cond_wait(&pendingCond, &actionsLock);
	int sig = 1;
	while (!(pending & want & sigbit(sig)))
		sig++;
	pending &= ~sigbit(sig);
	if (info) {
		memset(info, 0, sizeof *info);
		info->si_signo = sig;
		info->si_code = pendingInfo[sig].code;
		info->si_pid = getpid();
		info->si_uid = getuid();
		info->si_value = pendingInfo[sig].value;
	}
	pthread_mutex_unlock(&actionsLock);
	return sig;
}

/* sigwait takes a pending signal of set, waiting for one to be sent (by
 * raise, kill, sigqueue or pthread_kill while blocked). One that only
 * comes from outside never does: the thread waits for good, and a program
 * that joins it deadlocks, as natively it would hang. */
WEAK int sigwait(const sigset_t *set, int *sig) {
	*sig = takeSignal(set, NULL);
	return 0;
}
WEAK int sigwaitinfo(const sigset_t *set, siginfo_t *info) { return takeSignal(set, info); }

/* The System V signal calls (memcached ignores SIGPIPE with sigignore). */
WEAK int sigignore(int sig) { return signal(sig, SIG_IGN) == SIG_ERR ? -1 : 0; }
WEAK sighandler_t sigset(int sig, sighandler_t handler) { return signal(sig, handler); }
static int maskOne(int how, int sig) {
	sigset_t one;
	sigemptyset(&one);
	return sigaddset(&one, sig) < 0 ? -1 : sigprocmask(how, &one, NULL);
}
WEAK int sighold(int sig) { return maskOne(SIG_BLOCK, sig); }
WEAK int sigrelse(int sig) { return maskOne(SIG_UNBLOCK, sig); }

/* SIGRTMIN and SIGRTMAX are calls in glibc's headers: glibc keeps the
 * first two real-time signals for itself. */
WEAK int __libc_current_sigrtmin(void) { return 34; }
WEAK int __libc_current_sigrtmax(void) { return 64; }
