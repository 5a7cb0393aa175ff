/* A worker answers requests that come as datagrams over a socketpair,
 * and records what it did in globals before each answer; main reads
 * them after the answer, and reads the final tally after the end of
 * file the worker's shutdown makes on a SOCK_SEQPACKET pair. A send is
 * ordered before the receive that takes it, and a shutdown or close
 * before the end of file it makes, so there is no race. A second pair
 * of SOCK_DGRAM sockets carries the requests. */
#include <pthread.h>
#include <stdio.h>
#include <sys/socket.h>
#include <unistd.h>

static int requests[2], done[2];
static int last_request, handled, tally;

static void *worker(void *arg) {
	(void)arg;
	char b[8];
	ssize_t r;
	while ((r = recv(requests[1], b, sizeof b, 0)) > 0 && b[0] != 'q') {
		last_request = b[0];
		handled++;
		tally += b[0] - '0';
		send(requests[1], "ok", 2, 0);
	}
	tally *= 10;
	shutdown(done[1], SHUT_WR);
	return NULL;
}

int main(void) {
	if (socketpair(AF_UNIX, SOCK_DGRAM, 0, requests) || socketpair(AF_UNIX, SOCK_SEQPACKET, 0, done))
		return 1;
	pthread_t t;
	pthread_create(&t, NULL, worker, NULL);
	char b[8];
	for (char c = '1'; c <= '3'; c++) {
		send(requests[0], &c, 1, 0);
		recv(requests[0], b, sizeof b, 0);
		printf("request %c handled, %d so far\n", last_request, handled);
	}
	send(requests[0], "q", 1, 0);
	while (recv(done[0], b, sizeof b, 0) > 0)
		;
	printf("tally %d\n", tally);
	pthread_join(t, NULL);
	return 0;
}
