/* What servers ask of their descriptors: accept on an empty nonblocking
 * listener, a nonblocking connect finished through poll and SO_ERROR,
 * FIONREAD on a socket, a pipe, a file and a datagram socket, FIONBIO,
 * FIOCLEX, a terminal's ioctl on a file (ENOTTY), the end of file after
 * the peer closes and TCP's one send that goes before EPIPE, socket
 * options read back (buffer sizes, type, domain, listening), and an
 * AF_UNIX socket with an abstract name; a UDP datagram to port 0. The
 * output must be native's. */
#define _GNU_SOURCE
#include <stdio.h>
#include <string.h>
#include <unistd.h>
#include <errno.h>
#include <fcntl.h>
#include <poll.h>
#include <signal.h>
#include <pthread.h>
#include <arpa/inet.h>
#include <netinet/in.h>
#include <sys/socket.h>
#include <sys/un.h>
#include <sys/ioctl.h>
#include <stddef.h>

int main(void) {
	signal(SIGPIPE, SIG_IGN);
	int ls = socket(AF_INET, SOCK_STREAM | SOCK_NONBLOCK | SOCK_CLOEXEC, 0);
	struct sockaddr_in a = {.sin_family = AF_INET, .sin_addr.s_addr = htonl(INADDR_LOOPBACK)};
	bind(ls, (struct sockaddr *)&a, sizeof a);
	listen(ls, 8);
	socklen_t l = sizeof a;
	getsockname(ls, (struct sockaddr *)&a, &l);
	errno = 0;
	printf("accept empty %d EAGAIN %d\n", accept(ls, NULL, NULL), errno == EAGAIN);
	int c = socket(AF_INET, SOCK_STREAM, 0);
	fcntl(c, F_SETFL, fcntl(c, F_GETFL) | O_NONBLOCK);
	int r = connect(c, (struct sockaddr *)&a, sizeof a);
	printf("connect %d (EINPROGRESS or 0: %d)\n", r == 0 || errno == EINPROGRESS, 1);
	struct pollfd p = {c, POLLOUT, 0};
	poll(&p, 1, 1000);
	int err = -1; socklen_t el = sizeof err;
	getsockopt(c, SOL_SOCKET, SO_ERROR, &err, &el);
	printf("writable %d SO_ERROR %d\n", !!(p.revents & POLLOUT), err);
	int s = accept4(ls, NULL, NULL, SOCK_NONBLOCK);
	printf("accepted %d\n", s >= 0);
	send(c, "abc", 3, 0);
	int avail = 0;
	struct pollfd ps = {s, POLLIN, 0};
	poll(&ps, 1, 1000);
	ioctl(s, FIONREAD, &avail);
	printf("FIONREAD %d\n", avail);
	char buf[8];
	printf("recv %zd\n", recv(s, buf, sizeof buf, 0));
	close(s);
	poll(&(struct pollfd){c, POLLIN, 0}, 1, 1000);
	printf("peer closed: recv %zd\n", recv(c, buf, sizeof buf, 0));
	errno = 0;
	ssize_t w = send(c, "x", 1, 0);
	usleep(10000);
	ssize_t w2 = send(c, "y", 1, 0);
	printf("send after peer close: first %zd then %zd EPIPE %d\n", w, w2, errno == EPIPE);
	int ka = 1;
	printf("keepalive %d\n", setsockopt(c, SOL_SOCKET, SO_KEEPALIVE, &ka, sizeof ka));
	int rcv = 0; socklen_t rl = sizeof rcv;
	getsockopt(c, SOL_SOCKET, SO_RCVBUF, &rcv, &rl);
	printf("rcvbuf>0 %d\n", rcv > 0);
	close(c); close(ls);
	/* unix stream with a path and abstract name */
	int u = socket(AF_UNIX, SOCK_STREAM, 0);
	struct sockaddr_un ua = {.sun_family = AF_UNIX};
	ua.sun_path[0] = 0; strcpy(ua.sun_path + 1, "augur-abstract");
	printf("abstract bind %d\n", bind(u, (struct sockaddr *)&ua, offsetof(struct sockaddr_un, sun_path) + 1 + strlen("augur-abstract")));
	listen(u, 1);
	int uc = socket(AF_UNIX, SOCK_STREAM, 0);
	printf("abstract connect %d\n", connect(uc, (struct sockaddr *)&ua, offsetof(struct sockaddr_un, sun_path) + 1 + strlen("augur-abstract")));
	struct sockaddr_un got;
	socklen_t gl = sizeof got;
	getsockname(u, (struct sockaddr *)&got, &gl);
	printf("abstract name length %d, first byte %d, name %s\n", (int)gl, got.sun_path[0], got.sun_path + 1);
	int sa = accept(u, NULL, NULL);
	write(uc, "hello", 5);
	int q = -1;
	ioctl(sa, FIONREAD, &q);
	printf("unix FIONREAD %d\n", q);
	int pp[2];
	pipe(pp);
	write(pp[1], "1234567", 7);
	ioctl(pp[0], FIONREAD, &q);
	printf("pipe FIONREAD %d\n", q);
	int on = 1;
	ioctl(pp[0], FIONBIO, &on);
	char b2[16];
	read(pp[0], b2, sizeof b2);
	errno = 0;
	printf("FIONBIO read %zd EAGAIN %d\n", read(pp[0], b2, sizeof b2), errno == EAGAIN);
	int fd = open("/tmp/augur_fionread", O_CREAT | O_RDWR | O_TRUNC, 0600);
	write(fd, "0123456789", 10);
	lseek(fd, 4, SEEK_SET);
	ioctl(fd, FIONREAD, &q);
	printf("file FIONREAD %d\n", q);
	ioctl(fd, FIOCLEX);
	printf("FIOCLEX %d\n", fcntl(fd, F_GETFD));
	errno = 0;
	struct winsize { unsigned short r, c, x, y; } ws;
	printf("TIOCGWINSZ on a file %d ENOTTY %d\n", ioctl(fd, 0x5413, &ws), errno == ENOTTY);
	unlink("/tmp/augur_fionread");
	int d[2];
	socketpair(AF_UNIX, SOCK_DGRAM, 0, d);
	send(d[0], "abc", 3, 0);
	send(d[0], "defgh", 5, 0);
	ioctl(d[1], FIONREAD, &q);
	printf("datagram FIONREAD %d\n", q);
	int ty = 0, dom = 0, acc = 0; socklen_t tl = sizeof ty;
	getsockopt(d[1], SOL_SOCKET, SO_TYPE, &ty, &tl);
	getsockopt(d[1], SOL_SOCKET, SO_DOMAIN, &dom, &tl);
	getsockopt(u, SOL_SOCKET, SO_ACCEPTCONN, &acc, &tl);
	printf("type %d domain %d listening %d\n", ty, dom, acc);
	int udp = socket(AF_INET, SOCK_DGRAM, 0);
	struct sockaddr_in zero = {.sin_family = AF_INET, .sin_addr.s_addr = htonl(INADDR_LOOPBACK)};
	errno = 0;
	printf("UDP to port 0: %zd EINVAL %d\n", sendto(udp, "x", 1, 0, (struct sockaddr *)&zero, sizeof zero), errno == EINVAL);
	return 0;
}
