/* timerfd, as event loops use it: a one-shot timer that poll waits for
 * (with no timeout of its own) and a read then takes; a periodic one
 * that epoll sees after a wait that times out first, and whose expiries
 * add up while the program sleeps; a nonblocking one read while disarmed
 * (EAGAIN) and set to an absolute time already past; a thread blocked
 * reading a periodic timer; write and a bad clock fail. The output must
 * be native's. */
#include <stdio.h>
#include <stdint.h>
#include <unistd.h>
#include <errno.h>
#include <poll.h>
#include <pthread.h>
#include <sys/epoll.h>
#include <sys/timerfd.h>
#include <time.h>

static int tick_fd;
static void *ticker_reader(void *arg) {
	uint64_t n, total = 0;
	while (total < 3) {
		if (read(tick_fd, &n, sizeof n) != sizeof n) break;
		total += n;
	}
	return (void *)(long)total;
}

int main(void) {
	int fd = timerfd_create(CLOCK_MONOTONIC, 0);
	struct itimerspec its = {.it_value = {0, 20000000}};
	printf("settime %d\n", timerfd_settime(fd, 0, &its, NULL));
	struct itimerspec cur;
	timerfd_gettime(fd, &cur);
	printf("armed %d, interval %ld\n", cur.it_value.tv_nsec > 0 && cur.it_value.tv_nsec <= 20000000, cur.it_interval.tv_nsec);
	struct pollfd p = {fd, POLLIN, 0};
	printf("poll now %d\n", poll(&p, 1, 0));
	printf("poll waits %d revents %d\n", poll(&p, 1, -1), p.revents);
	uint64_t n;
	printf("read %zd count %llu\n", read(fd, &n, sizeof n), (unsigned long long)n);
	timerfd_gettime(fd, &cur);
	printf("disarmed %d\n", cur.it_value.tv_sec == 0 && cur.it_value.tv_nsec == 0);
	errno = 0;
	printf("write %zd EINVAL %d\n", write(fd, &n, sizeof n), errno == EINVAL);

	/* periodic with epoll and a short timeout first */
	its.it_interval.tv_nsec = 10000000;
	its.it_value.tv_nsec = 10000000;
	timerfd_settime(fd, 0, &its, NULL);
	int ep = epoll_create1(0);
	struct epoll_event ev = {.events = EPOLLIN, .data.u32 = 7}, out;
	epoll_ctl(ep, EPOLL_CTL_ADD, fd, &ev);
	printf("epoll short %d\n", epoll_wait(ep, &out, 1, 1));
	printf("epoll %d data %u\n", epoll_wait(ep, &out, 1, 1000), out.data.u32);
	struct timespec ts = {0, 35000000};
	nanosleep(&ts, NULL);
	read(fd, &n, sizeof n);
	printf("after 35+ ms, at least 3 expiries: %d\n", n >= 3);

	/* nonblocking, disarmed */
	int nb = timerfd_create(CLOCK_REALTIME, TFD_NONBLOCK);
	errno = 0;
	printf("nonblocking read %zd EAGAIN %d\n", read(nb, &n, sizeof n), errno == EAGAIN);
	struct timespec now;
	clock_gettime(CLOCK_REALTIME, &now);
	struct itimerspec abs = {.it_value = {now.tv_sec, now.tv_nsec}};
	timerfd_settime(nb, TFD_TIMER_ABSTIME, &abs, NULL);
	printf("absolute in the past: read %zd count %llu\n", read(nb, &n, sizeof n), (unsigned long long)n);
	printf("bad clock %d\n", timerfd_create(12345, 0));

	/* a thread blocked reading a periodic timer */
	tick_fd = timerfd_create(CLOCK_MONOTONIC, 0);
	struct itimerspec per = {.it_interval = {0, 5000000}, .it_value = {0, 5000000}};
	timerfd_settime(tick_fd, 0, &per, NULL);
	pthread_t t;
	void *total;
	pthread_create(&t, NULL, ticker_reader, NULL);
	pthread_join(t, &total);
	printf("thread counted %ld or more: %d\n", 3L, (long)total >= 3);
	close(fd); close(nb); close(tick_fd); close(ep);
	return 0;
}
