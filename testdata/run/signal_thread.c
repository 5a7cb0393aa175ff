/* Signals blocked in every thread and taken by one thread with sigwait,
 * the usual set-up of a threaded server; a blocked signal stays pending
 * until it is unblocked, and is then delivered at once. */
#define _GNU_SOURCE
#include <pthread.h>
#include <signal.h>
#include <stdio.h>
#include <unistd.h>

static volatile sig_atomic_t handled;
static int taken[2];

static void on_hup(int sig) { handled = sig; }

static void *signal_thread(void *arg) {
	const sigset_t *wanted = arg;
	for (int i = 0; i < 2; i++)
		sigwait(wanted, &taken[i]);
	return NULL;
}

int main(void) {
	signal(SIGHUP, on_hup);
	sigset_t all, hup;
	sigemptyset(&all);
	sigaddset(&all, SIGHUP);
	sigaddset(&all, SIGUSR1);
	sigaddset(&all, SIGTERM);
	pthread_sigmask(SIG_BLOCK, &all, NULL);

	raise(SIGHUP);
	sigset_t pend;
	sigpending(&pend);
	printf("blocked: hup pending %d, handled %d\n", sigismember(&pend, SIGHUP), handled);
	sigemptyset(&hup);
	sigaddset(&hup, SIGHUP);
	pthread_sigmask(SIG_UNBLOCK, &hup, NULL);
	sigpending(&pend);
	printf("unblocked: hup pending %d, handled %d\n", sigismember(&pend, SIGHUP), handled);

	sigset_t old;
	pthread_sigmask(SIG_BLOCK, NULL, &old);
	printf("still blocked: usr1 %d term %d hup %d\n", sigismember(&old, SIGUSR1), sigismember(&old, SIGTERM),
	       sigismember(&old, SIGHUP));

	sigset_t wanted;
	sigemptyset(&wanted);
	sigaddset(&wanted, SIGUSR1);
	sigaddset(&wanted, SIGTERM);
	pthread_t t;
	pthread_create(&t, NULL, signal_thread, &wanted);
	pthread_kill(t, SIGUSR1);
	kill(getpid(), SIGTERM);
	pthread_join(t, NULL);
	printf("signal thread took %d then %d\n", taken[0], taken[1]);
	return 0;
}
