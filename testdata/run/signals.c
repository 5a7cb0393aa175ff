/* Signals a program sends itself: a handler installed with signal and one
 * with sigaction (SA_SIGINFO, SA_RESETHAND), an ignored signal, signal
 * sets, the null signal (kill(getpid(), 0) asks whether the process
 * exists), the System V calls, and finally a signal with its default
 * action, which ends the process (exit status 128 + SIGTERM). */
#define _GNU_SOURCE
#include <signal.h>
#include <stdio.h>
#include <string.h>
#include <unistd.h>

static volatile sig_atomic_t got;

static void onUsr1(int sig) { got += sig; }

static void onUsr2(int sig, siginfo_t *info, void *ctx) {
	(void)ctx;
	got += 100 * info->si_signo;
}

int main(void) {
	signal(SIGUSR1, onUsr1);
	raise(SIGUSR1);
	printf("after SIGUSR1: %d\n", got);
	struct sigaction sa;
	memset(&sa, 0, sizeof sa);
	sa.sa_sigaction = onUsr2;
	sa.sa_flags = SA_SIGINFO | SA_RESETHAND;
	sigemptyset(&sa.sa_mask);
	sigaction(SIGUSR2, &sa, NULL);
	raise(SIGUSR2);
	printf("after SIGUSR2: %d\n", got);
	struct sigaction now;
	sigaction(SIGUSR2, NULL, &now);
	printf("reset to default: %d\n", now.sa_handler == SIG_DFL);
	signal(SIGINT, SIG_IGN);
	raise(SIGINT);
	kill(getpid(), SIGINT);
	printf("SIGINT ignored, SIGCHLD default-ignored: %d\n", raise(SIGCHLD));
	printf("the null signal checks the process is there: kill %d raise %d\n", kill(getpid(), 0), raise(0));
	sigset_t set;
	sigemptyset(&set);
	sigaddset(&set, SIGHUP);
	sigaddset(&set, SIGTERM);
	sigdelset(&set, SIGHUP);
	printf("set: hup %d term %d\n", sigismember(&set, SIGHUP), sigismember(&set, SIGTERM));
	printf("previous handler returned: %d\n", signal(SIGUSR1, SIG_DFL) == onUsr1);
	/* The System V calls: sigignore, sigset (which returns the previous
	 * handler), sighold and sigrelse. */
	sigignore(SIGPIPE);
	raise(SIGPIPE);
	printf("SIGPIPE ignored by sigignore; sigset returned: %d\n", sigset(SIGUSR1, onUsr1) == SIG_DFL);
	raise(SIGUSR1);
	printf("hold %d, release %d, bad %d\n", sighold(SIGUSR1), sigrelse(SIGUSR1), sighold(0));
	fflush(stdout);
	raise(SIGTERM);
	printf("not reached\n");
	return 0;
}
