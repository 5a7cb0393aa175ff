/* Timers that signal, as programs wait for them: alarm and pause,
 * setitimer's periodic SIGALRM counted through pause, sigsuspend with
 * SIGALRM blocked around it (the race-free way), what alarm returns of
 * an earlier one, getitimer and timer_gettime of armed and disarmed
 * timers, a POSIX timer that signals once at an absolute time, one whose
 * expiries run a function in a thread of its own (SIGEV_THREAD), and a
 * pause that another thread's pthread_kill ends. The output must be
 * native's. */
#define _GNU_SOURCE
#include <pthread.h>
#include <signal.h>
#include <stdio.h>
#include <string.h>
#include <sys/time.h>
#include <time.h>
#include <unistd.h>

static volatile sig_atomic_t alarms, usr1s;

static void onAlarm(int sig) { alarms++; }
static void onUsr1(int sig) { usr1s++; }

static void handle(int sig, void (*fn)(int)) {
	struct sigaction sa;
	memset(&sa, 0, sizeof sa);
	sa.sa_handler = fn;
	sigaction(sig, &sa, NULL);
}

/* seconds rounds what a timer has left to whole seconds. */
static long seconds(struct timeval tv) { return tv.tv_sec + (tv.tv_usec >= 500000); }

static pthread_mutex_t ticksLock = PTHREAD_MUTEX_INITIALIZER;
static pthread_cond_t ticked = PTHREAD_COND_INITIALIZER;
static int ticks;

static void tick(union sigval v) {
	pthread_mutex_lock(&ticksLock);
	ticks += v.sival_int;
	pthread_cond_signal(&ticked);
	pthread_mutex_unlock(&ticksLock);
}

static void *sendUsr1(void *main) {
	usleep(1000);
	pthread_kill(*(pthread_t *)main, SIGUSR1);
	return NULL;
}

int main(void) {
	handle(SIGALRM, onAlarm);
	handle(SIGUSR1, onUsr1);

	printf("alarm(0) with none armed: %u\n", alarm(0));
	alarm(1);
	int r = pause();
	printf("pause: %d, alarms %d\n", r, (int)alarms);
	alarm(7);
	printf("alarm(3) after alarm(7): %u; alarm(0): %u\n", alarm(3), alarm(0));

	struct itimerval every = {{0, 20000}, {0, 20000}}, now;
	setitimer(ITIMER_REAL, &every, NULL);
	while (alarms < 5)
		pause();
	getitimer(ITIMER_REAL, &now);
	printf("periodic: alarms %d, interval %ld us, armed %d\n", (int)alarms, (long)now.it_interval.tv_usec,
	       now.it_value.tv_sec != 0 || now.it_value.tv_usec != 0);
	struct itimerval off = {{0, 0}, {0, 0}};
	setitimer(ITIMER_REAL, &off, &now);
	getitimer(ITIMER_REAL, &now);
	printf("disarmed: %ld %ld\n", (long)now.it_value.tv_sec, (long)now.it_value.tv_usec);

	struct itimerval two = {{0, 0}, {2, 0}};
	setitimer(ITIMER_REAL, &two, NULL);
	getitimer(ITIMER_REAL, &now);
	printf("two seconds left: %ld\n", seconds(now.it_value));
	sigset_t alrm, old;
	sigemptyset(&alrm);
	sigaddset(&alrm, SIGALRM);
	sigprocmask(SIG_BLOCK, &alrm, &old);
	int before = alarms;
	while (alarms == before)
		sigsuspend(&old);
	sigprocmask(SIG_SETMASK, &old, NULL);
	printf("sigsuspend: one more alarm %d\n", alarms == before + 1);

	timer_t once;
	struct sigevent ev;
	memset(&ev, 0, sizeof ev);
	ev.sigev_notify = SIGEV_SIGNAL;
	ev.sigev_signo = SIGALRM;
	if (timer_create(CLOCK_MONOTONIC, &ev, &once) != 0)
		return 1;
	struct itimerspec spec, got;
	memset(&spec, 0, sizeof spec);
	clock_gettime(CLOCK_MONOTONIC, &spec.it_value);
	spec.it_value.tv_sec += 1;
	timer_settime(once, TIMER_ABSTIME, &spec, NULL);
	timer_gettime(once, &got);
	printf("absolute timer armed: %d\n", got.it_value.tv_sec != 0 || got.it_value.tv_nsec != 0);
	before = alarms;
	pause();
	timer_gettime(once, &got);
	printf("it fired: %d, now disarmed: %d\n", alarms == before + 1, got.it_value.tv_sec == 0 && got.it_value.tv_nsec == 0);
	timer_delete(once);

	timer_t periodic;
	memset(&ev, 0, sizeof ev);
	ev.sigev_notify = SIGEV_THREAD;
	ev.sigev_notify_function = tick;
	ev.sigev_value.sival_int = 10;
	if (timer_create(CLOCK_MONOTONIC, &ev, &periodic) != 0)
		return 1;
	struct itimerspec ms = {{0, 5000000}, {0, 5000000}};
	timer_settime(periodic, 0, &ms, NULL);
	pthread_mutex_lock(&ticksLock);
	while (ticks < 30)
		pthread_cond_wait(&ticked, &ticksLock);
	pthread_mutex_unlock(&ticksLock);
	timer_delete(periodic);
	printf("thread timer: ticks %d or more\n", 30);

	pthread_t self = pthread_self(), sender;
	pthread_create(&sender, NULL, sendUsr1, &self);
	r = pause();
	pthread_join(sender, NULL);
	printf("pause ended by pthread_kill: %d, usr1 %d\n", r, (int)usr1s);
	return 0;
}
