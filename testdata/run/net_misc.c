/* Pipes, a socketpair, select, epoll, UDP and the errors of the loopback
 * (EAGAIN on an empty nonblocking pipe, end of file, EPIPE with SIGPIPE
 * ignored, a datagram cut to the buffer, a refused connection, a
 * socketpair's end shut down for writing): the
 * output must be native's. */
#include <arpa/inet.h>
#include <errno.h>
#include <fcntl.h>
#include <netinet/in.h>
#include <pthread.h>
#include <signal.h>
#include <stdio.h>
#include <string.h>
#include <sys/epoll.h>
#include <sys/select.h>
#include <sys/socket.h>
#include <unistd.h>

static int sp[2];

static void *peer(void *arg) {
	(void)arg;
	char buf[16];
	int n = read(sp[1], buf, sizeof buf);
	for (int i = 0; i < n; i++)
		buf[i] = buf[i] >= 'a' && buf[i] <= 'z' ? buf[i] - 32 : buf[i];
	write(sp[1], buf, n);
	return NULL;
}

static struct sockaddr_in loopback(int port) {
	struct sockaddr_in a = {0};
	a.sin_family = AF_INET;
	a.sin_addr.s_addr = htonl(INADDR_LOOPBACK);
	a.sin_port = htons(port);
	return a;
}

int main(void) {
	signal(SIGPIPE, SIG_IGN);
	/* socketpair and select */
	socketpair(AF_UNIX, SOCK_STREAM, 0, sp);
	pthread_t t;
	pthread_create(&t, NULL, peer, NULL);
	write(sp[0], "shout", 5);
	fd_set r;
	FD_ZERO(&r);
	FD_SET(sp[0], &r);
	int ready = select(sp[0] + 1, &r, NULL, NULL, NULL);
	char buf[64] = {0};
	int n = read(sp[0], buf, sizeof buf - 1);
	printf("select %d, read %d: %s\n", ready, n, buf);
	pthread_join(t, NULL);
	/* a socketpair's end is a socket: shut its writing down, and the peer
	 * reads what was sent, then end of file, and may still answer */
	write(sp[0], "bye", 3);
	printf("shutdown: %d\n", shutdown(sp[0], SHUT_WR));
	n = read(sp[1], buf, sizeof buf - 1);
	printf("after shutdown: %d, then %d\n", n, (int)read(sp[1], buf, 1));
	n = write(sp[0], "x", 1);
	printf("write after shutdown: %d %s\n", n, n < 0 && errno == EPIPE ? "EPIPE" : "?");
	printf("answer: %d, read %d\n", (int)write(sp[1], "ok", 2), (int)read(sp[0], buf, sizeof buf));
	int type = 0;
	socklen_t tl = sizeof type;
	printf("getsockopt: %d, stream %d\n", getsockopt(sp[1], SOL_SOCKET, SO_TYPE, &type, &tl), type == SOCK_STREAM);
	close(sp[0]);
	close(sp[1]);
	pipe(sp);
	n = shutdown(sp[0], SHUT_RD);
	printf("shutdown of a pipe: %d %s\n", n, n < 0 && errno == ENOTSOCK ? "ENOTSOCK" : "?");
	close(sp[0]);
	close(sp[1]);
	/* a nonblocking read of an empty pipe, end of file, EPIPE */
	int p[2];
	pipe(p);
	fcntl(p[0], F_SETFL, fcntl(p[0], F_GETFL) | O_NONBLOCK);
	n = read(p[0], buf, 1);
	printf("empty nonblocking read: %d %s\n", n, n < 0 && errno == EAGAIN ? "EAGAIN" : "?");
	close(p[1]);
	printf("read after the writer closed: %d\n", (int)read(p[0], buf, 1));
	pipe(p);
	close(p[0]);
	n = write(p[1], "x", 1);
	printf("write with no reader: %d %s\n", n, n < 0 && errno == EPIPE ? "EPIPE" : "?");
	close(p[1]);
	/* epoll over a pipe */
	pipe(p);
	int ep = epoll_create1(0);
	struct epoll_event ev = {.events = EPOLLIN, .data.u64 = 42}, out[4];
	epoll_ctl(ep, EPOLL_CTL_ADD, p[0], &ev);
	printf("epoll before a write: %d\n", epoll_wait(ep, out, 4, 0));
	write(p[1], "y", 1);
	n = epoll_wait(ep, out, 4, 0);
	printf("epoll after: %d, data %llu, in %d\n", n, (unsigned long long)out[0].data.u64, (out[0].events & EPOLLIN) != 0);
	close(ep);
	close(p[0]);
	close(p[1]);
	/* UDP */
	int u1 = socket(AF_INET, SOCK_DGRAM, 0), u2 = socket(AF_INET, SOCK_DGRAM, 0);
	struct sockaddr_in a = loopback(0);
	bind(u1, (struct sockaddr *)&a, sizeof a);
	socklen_t len = sizeof a;
	getsockname(u1, (struct sockaddr *)&a, &len);
	sendto(u2, "ping", 4, 0, (struct sockaddr *)&a, sizeof a);
	sendto(u2, "pong!", 5, 0, (struct sockaddr *)&a, sizeof a);
	struct sockaddr_in from;
	len = sizeof from;
	n = recvfrom(u1, buf, 3, 0, (struct sockaddr *)&from, &len);
	printf("udp: %d bytes \"%.*s\" (datagram cut), from loopback: %d\n", n, n, buf, from.sin_addr.s_addr == htonl(INADDR_LOOPBACK));
	n = recv(u1, buf, sizeof buf, 0);
	printf("udp: %d bytes \"%.*s\"\n", n, n, buf);
	/* a refused connection */
	int s = socket(AF_INET, SOCK_STREAM, 0);
	a = loopback(0);
	bind(s, (struct sockaddr *)&a, sizeof a);
	len = sizeof a;
	getsockname(s, (struct sockaddr *)&a, &len);
	close(s);
	s = socket(AF_INET, SOCK_STREAM, 0);
	n = connect(s, (struct sockaddr *)&a, sizeof a);
	printf("connect to a closed port: %d %s\n", n, n < 0 && errno == ECONNREFUSED ? "ECONNREFUSED" : "?");
	return 0;
}
