/* sendmsg and recvmsg over a socketpair (two buffers gathered, scattered
 * back), readv that returns what a socket holds rather than waiting for
 * more, and one UDP datagram sent from three buffers: the output must be
 * native's. */
#include <arpa/inet.h>
#include <netinet/in.h>
#include <stdio.h>
#include <string.h>
#include <sys/socket.h>
#include <sys/uio.h>
#include <unistd.h>
int main(void) {
	int sv[2];
	socketpair(AF_UNIX, SOCK_STREAM, 0, sv);
	struct iovec out[2] = {{"hello ", 6}, {"world", 5}};
	struct msghdr m = {.msg_iov = out, .msg_iovlen = 2};
	printf("sendmsg: %zd\n", sendmsg(sv[0], &m, 0));
	char a[4], b[16] = {0};
	struct iovec in[2] = {{a, 4}, {b, 15}};
	struct msghdr r = {.msg_iov = in, .msg_iovlen = 2};
	ssize_t n = recvmsg(sv[1], &r, 0);
	printf("recvmsg: %zd \"%.4s\" \"%s\"\n", n, a, b);
	write(sv[0], "abc", 3);
	char c[2], d[8] = {0};
	struct iovec v[2] = {{c, 2}, {d, 7}};
	printf("readv: %zd\n", readv(sv[1], v, 2));
	/* UDP: one datagram from three buffers */
	int u1 = socket(AF_INET, SOCK_DGRAM, 0), u2 = socket(AF_INET, SOCK_DGRAM, 0);
	struct sockaddr_in addr = {.sin_family = AF_INET, .sin_addr.s_addr = htonl(INADDR_LOOPBACK)};
	bind(u1, (struct sockaddr *)&addr, sizeof addr);
	socklen_t l = sizeof addr;
	getsockname(u1, (struct sockaddr *)&addr, &l);
	struct iovec g[3] = {{"a", 1}, {"bc", 2}, {"def", 3}};
	struct msghdr dm = {.msg_name = &addr, .msg_namelen = sizeof addr, .msg_iov = g, .msg_iovlen = 3};
	sendmsg(u2, &dm, 0);
	char whole[16] = {0};
	printf("udp datagram: %zd %s\n", recv(u1, whole, sizeof whole, 0), whole);
	return 0;
}
