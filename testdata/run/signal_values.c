/* Signals that carry a value (sigqueue): an SA_SIGINFO handler sees
 * si_code SI_QUEUE and the value; a blocked standard signal queued twice
 * is pending once, and sigwaitinfo takes it with the first sender's
 * value; kill's signal says SI_USER. The output must be native's. */
#define _GNU_SOURCE
#include <signal.h>
#include <stdio.h>
#include <unistd.h>
#include <pthread.h>
static volatile int got_value = -1, got_code;
static void h(int sig, siginfo_t *si, void *ctx) { got_value = si->si_value.sival_int; got_code = si->si_code; }
int main(void) {
	struct sigaction sa = {0};
	sa.sa_sigaction = h;
	sa.sa_flags = SA_SIGINFO;
	sigaction(SIGUSR2, &sa, NULL);
	sigqueue(getpid(), SIGUSR2, (union sigval){.sival_int = 99});
	printf("handler value %d code SI_QUEUE %d\n", got_value, got_code == SI_QUEUE);
	sigset_t set;
	sigemptyset(&set);
	sigaddset(&set, SIGUSR1);
	sigprocmask(SIG_BLOCK, &set, NULL);
	sigqueue(getpid(), SIGUSR1, (union sigval){.sival_int = 7});
	sigqueue(getpid(), SIGUSR1, (union sigval){.sival_int = 8});
	siginfo_t si;
	int s = sigwaitinfo(&set, &si);
	printf("sigwaitinfo %d value %d code %d pid ok %d\n", s, si.si_value.sival_int, si.si_code == SI_QUEUE, si.si_pid == getpid());
	sigset_t p; sigpending(&p);
	printf("still pending %d\n", sigismember(&p, SIGUSR1));
	kill(getpid(), SIGUSR1);
	s = sigwaitinfo(&set, &si);
	printf("kill: code SI_USER %d\n", si.si_code == SI_USER);
	return 0;
}
