/* A thread polls a pipe with a 100 ms timeout, counting the timeouts,
 * while the writer sleeps half a second before it writes. The poll times
 * out several times before the write arrives, as a server's event loop
 * wakes for its timer while its client sleeps. (augur once let virtual
 * time jump to the sleeper's deadline first, so the poll never timed out
 * and the timer never fired.) */
#include <poll.h>
#include <pthread.h>
#include <stdio.h>
#include <unistd.h>

static int fds[2];

static void *writer(void *arg) {
	(void)arg;
	usleep(500000);
	write(fds[1], "x", 1);
	return NULL;
}

int main(void) {
	pipe(fds);
	pthread_t w;
	pthread_create(&w, NULL, writer, NULL);
	struct pollfd p = {.fd = fds[0], .events = POLLIN};
	int timeouts = 0, n;
	while ((n = poll(&p, 1, 100)) == 0)
		timeouts++;
	char c = 0;
	read(fds[0], &c, 1);
	pthread_join(w, NULL);
	printf("poll returned %d with '%c' after %s timeouts\n", n, c, timeouts >= 3 ? "several" : "no");
	return 0;
}
