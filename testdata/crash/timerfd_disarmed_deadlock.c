// expect: deadlock "all 2 live threads are blocked" line 0
/* A thread reads a timerfd that main disarms while it waits: the read
 * waits for good (natively the program hangs), so with main joining it
 * every thread is blocked. The wait must not keep the deadline of the
 * expiry it was disarmed from: with it, the run timed the read out
 * again and again and never ended. */
#include <pthread.h>
#include <stdint.h>
#include <sys/timerfd.h>
#include <time.h>
#include <unistd.h>

static int fd;

static void *reader(void *arg) {
	(void)arg;
	uint64_t n;
	read(fd, &n, sizeof n);
	return NULL;
}

int main(void) {
	fd = timerfd_create(CLOCK_MONOTONIC, 0);
	struct itimerspec armed = {.it_value = {0, 50000000}}, off = {0};
	timerfd_settime(fd, 0, &armed, NULL);
	pthread_t t;
	pthread_create(&t, NULL, reader, NULL);
	struct timespec pause = {0, 10000000};
	nanosleep(&pause, NULL);
	timerfd_settime(fd, 0, &off, NULL);
	pthread_join(t, NULL);
	return 0;
}
