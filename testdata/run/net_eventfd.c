/* eventfd as threads use it to wake each other: a counter that writes add
 * to and a read takes whole (one at a time in semaphore mode), a read
 * that waits for a write, poll seeing it ready. The output must be
 * native's. */
#include <errno.h>
#include <poll.h>
#include <pthread.h>
#include <stdint.h>
#include <stdio.h>
#include <sys/eventfd.h>
#include <unistd.h>

static int wake;
static uint64_t got;

static void *waiter(void *arg) {
	(void)arg;
	eventfd_t v;
	eventfd_read(wake, &v); /* waits for main's write */
	got = v;
	return NULL;
}

int main(void) {
	int efd = eventfd(0, 0);
	uint64_t three = 3, four = 4, v;
	write(efd, &three, 8);
	write(efd, &four, 8);
	struct pollfd p = {.fd = efd, .events = POLLIN};
	printf("poll: %d, ready to read: %d\n", poll(&p, 1, 0), (p.revents & POLLIN) != 0);
	read(efd, &v, 8);
	printf("read %llu\n", (unsigned long long)v);
	int sem = eventfd(2, EFD_SEMAPHORE | EFD_NONBLOCK);
	int a = (int)read(sem, &v, 8);
	int b = (int)read(sem, &v, 8);
	int c = (int)read(sem, &v, 8);
	printf("semaphore reads: %d %d %d (%s), last value %llu\n", a, b, c, c < 0 && errno == EAGAIN ? "EAGAIN" : "?", (unsigned long long)v);
	wake = eventfd(0, 0);
	pthread_t t;
	pthread_create(&t, NULL, waiter, NULL);
	eventfd_write(wake, 5);
	pthread_join(t, NULL);
	printf("the waiter woke with %llu\n", (unsigned long long)got);
	return 0;
}
