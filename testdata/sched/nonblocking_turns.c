/* Two threads echo a byte back and forth 2,000 times through two pipes
 * whose read ends are nonblocking: the echo thread polls its pipe with
 * read until it returns a byte, main waits for the answer with a zero
 * timeout poll, then reads it. Correct, and it prints "2000" under every
 * schedule; a nonblocking read that fails with EAGAIN and is no preemption
 * point lets the polling thread hold the processor for a whole time slice
 * per hand-over, and the run looks like a hang. */
#include <fcntl.h>
#include <poll.h>
#include <pthread.h>
#include <stdio.h>
#include <unistd.h>

#define ROUNDS 2000

static int up[2], down[2];

static void *echo(void *arg) {
	(void)arg;
	char c;
	for (int i = 0; i < ROUNDS; i++) {
		while (read(up[0], &c, 1) != 1)
			;
		write(down[1], &c, 1);
	}
	return NULL;
}

int main(void) {
	if (pipe(up) != 0 || pipe(down) != 0)
		return 1;
	fcntl(up[0], F_SETFL, O_NONBLOCK);
	fcntl(down[0], F_SETFL, O_NONBLOCK);
	pthread_t t;
	pthread_create(&t, NULL, echo, NULL);
	long echoed = 0;
	for (int i = 0; i < ROUNDS; i++) {
		char c = 'a' + i % 26;
		write(up[1], &c, 1);
		struct pollfd p = {down[0], POLLIN, 0};
		while (poll(&p, 1, 0) == 0)
			;
		if (read(down[0], &c, 1) == 1 && c == 'a' + i % 26)
			echoed++;
	}
	pthread_join(t, NULL);
	printf("%ld\n", echoed);
	return 0;
}
