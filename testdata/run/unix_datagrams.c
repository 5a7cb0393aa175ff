/* Unix datagram and sequenced-packet sockets, as programs pass messages
 * between threads with them: a socketpair of SOCK_DGRAM keeps each send
 * one message (a short read drops the rest, a read takes one whatever
 * the size), a worker answers requests over one, a full queue makes a
 * nonblocking sender fail with EAGAIN and a blocking one wait for the
 * reader; SOCK_SEQPACKET reads end of file once the peer is closed or
 * shut down, where SOCK_DGRAM waits (EAGAIN) and a send fails; a
 * socket bound to a path gets datagrams from unnamed senders, through
 * sendto and connect; poll sees what each can do. The output must be
 * native's. */
#include <errno.h>
#include <fcntl.h>
#include <poll.h>
#include <pthread.h>
#include <stdio.h>
#include <string.h>
#include <sys/socket.h>
#include <sys/un.h>
#include <unistd.h>

static int req[2];
static int drained, to_drain;

static void *answer(void *arg) {
	char b[64];
	ssize_t r;
	while ((r = recv(req[1], b, sizeof b, 0)) > 0) {
		if (b[0] == 'q')
			break;
		char out[80];
		int k = snprintf(out, sizeof out, "got %d bytes: %.*s", (int)r, (int)r, b);
		send(req[1], out, k, 0);
	}
	return NULL;
}

static void *drain(void *arg) {
	int fd = *(int *)arg;
	char b[16];
	usleep(1000);
	while (drained < to_drain && recv(fd, b, sizeof b, 0) > 0)
		drained++;
	return NULL;
}

static void boundaries(int type) {
	int sv[2];
	char b[16];
	printf("socketpair(%s) %d\n", type == SOCK_DGRAM ? "dgram" : "seqpacket", socketpair(AF_UNIX, type, 0, sv));
	printf("send %zd %zd\n", send(sv[0], "abcdef", 6, 0), write(sv[0], "gh", 2));
	printf("short recv %zd, then %zd\n", recv(sv[1], b, 3, 0), read(sv[1], b, sizeof b));
	printf("empty datagram: send %zd recv %zd\n", send(sv[0], "", 0, 0), recv(sv[1], b, sizeof b, 0));
	struct sockaddr_un from;
	socklen_t fl = sizeof from;
	send(sv[1], "x", 1, 0);
	printf("recvfrom %zd, address length %d\n", recvfrom(sv[0], b, sizeof b, 0, (struct sockaddr *)&from, &fl), (int)fl);
	errno = 0;
	printf("nothing queued: %zd EAGAIN %d\n", recv(sv[1], b, sizeof b, MSG_DONTWAIT), errno == EAGAIN);

	fcntl(sv[0], F_SETFL, O_NONBLOCK);
	int n = 0;
	while (send(sv[0], "0123456789", 10, 0) == 10)
		n++;
	printf("queue filled after many: %d, EAGAIN %d\n", n > 100, errno == EAGAIN);
	struct pollfd p = {sv[0], POLLOUT, 0};
	printf("poll on a full queue: %d\n", poll(&p, 1, 0));
	recv(sv[1], b, sizeof b, 0);
	printf("poll after one read: %d\n", poll(&p, 1, 0));
	for (int i = 0; i < n * 3 / 4 + 2; i++)
		recv(sv[1], b, sizeof b, 0);
	printf("poll with a quarter left: %d %d\n", poll(&p, 1, 0), !!(p.revents & POLLOUT));
	while (recv(sv[1], b, sizeof b, MSG_DONTWAIT) > 0)
		;

	fcntl(sv[0], F_SETFL, 0);
	drained = 0;
	to_drain = n + 50;
	pthread_t t;
	pthread_create(&t, NULL, drain, &sv[1]);
	int sent = 0;
	for (int i = 0; i < n + 50; i++)
		sent += send(sv[0], "0123456789", 10, 0) == 10;
	pthread_join(t, NULL);
	printf("blocking sends all went: %d\n", sent == n + 50);
	while (recv(sv[1], b, sizeof b, MSG_DONTWAIT) > 0)
		;

	if (type == SOCK_SEQPACKET) {
		shutdown(sv[0], SHUT_WR);
		printf("after shutdown: recv %zd\n", recv(sv[1], b, sizeof b, 0));
	}
	send(sv[0], "last", 4, MSG_NOSIGNAL);
	close(sv[0]);
	p = (struct pollfd){sv[1], POLLIN, 0};
	printf("poll after close: %d in %d hup %d\n", poll(&p, 1, 0), !!(p.revents & POLLIN), !!(p.revents & POLLHUP));
	errno = 0;
	printf("after close: recv %zd", recv(sv[1], b, sizeof b, MSG_DONTWAIT));
	errno = 0;
	printf(" %zd errno %d", recv(sv[1], b, sizeof b, MSG_DONTWAIT), errno);
	errno = 0;
	printf("; send %zd errno %d\n", send(sv[1], "a", 1, MSG_NOSIGNAL), errno);
	close(sv[1]);
}

int main(void) {
	boundaries(SOCK_DGRAM);
	boundaries(SOCK_SEQPACKET);

	socketpair(AF_UNIX, SOCK_DGRAM, 0, req);
	pthread_t t;
	pthread_create(&t, NULL, answer, NULL);
	const char *asks[] = {"one", "two and three", "four"};
	for (int i = 0; i < 3; i++) {
		char b[80];
		send(req[0], asks[i], strlen(asks[i]), 0);
		ssize_t r = recv(req[0], b, sizeof b, 0);
		printf("%.*s\n", (int)r, b);
	}
	send(req[0], "q", 1, 0);
	pthread_join(t, NULL);

	int a = socket(AF_UNIX, SOCK_DGRAM, 0), c = socket(AF_UNIX, SOCK_DGRAM, 0);
	struct sockaddr_un ad = {.sun_family = AF_UNIX};
	snprintf(ad.sun_path, sizeof ad.sun_path, "/tmp/augur_dgram_%d.sock", (int)getpid());
	unlink(ad.sun_path);
	printf("bind %d\n", bind(a, (struct sockaddr *)&ad, sizeof ad));
	printf("sendto %zd\n", sendto(c, "hey", 3, 0, (struct sockaddr *)&ad, sizeof ad));
	char b[16];
	struct sockaddr_un from;
	socklen_t fl = sizeof from;
	printf("recvfrom %zd, address length %d\n", recvfrom(a, b, sizeof b, 0, (struct sockaddr *)&from, &fl), (int)fl);
	struct sockaddr_un none = {.sun_family = AF_UNIX, .sun_path = "/tmp/augur_dgram_none.sock"};
	errno = 0;
	printf("sendto no socket: %zd ENOENT %d\n", sendto(c, "hey", 3, 0, (struct sockaddr *)&none, sizeof none), errno == ENOENT);
	printf("connect %d, send %zd, recv %zd\n", connect(c, (struct sockaddr *)&ad, sizeof ad), send(c, "hi", 2, 0), recv(a, b, sizeof b, 0));
	close(a);
	close(c);
	unlink(ad.sun_path);
	return 0;
}
