/* A client program of echo_server.c: it connects to the server twice,
 * one connection after the other, sends its first argument each time and
 * prints the answers; it exits with status 3 when the server cannot be
 * reached. Its own names (main, connect_server, a global) are also the
 * names of a second copy of it in the same run: each client is linked
 * apart. */
#include <arpa/inet.h>
#include <netinet/in.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/socket.h>
#include <unistd.h>

enum { port = 12100 };

int answers; /* external: a second client defines it too */

static int connect_server(void) {
	int fd = socket(AF_INET, SOCK_STREAM, 0);
	struct sockaddr_in a;
	memset(&a, 0, sizeof a);
	a.sin_family = AF_INET;
	a.sin_port = htons(port);
	a.sin_addr.s_addr = htonl(INADDR_LOOPBACK);
	if (connect(fd, (struct sockaddr *)&a, sizeof a) != 0) {
		close(fd);
		return -1;
	}
	return fd;
}

int main(int argc, char **argv) {
	const char *msg = argc > 1 ? argv[1] : "hello";
	for (int i = 0; i < 2; i++) {
		int fd = connect_server();
		if (fd < 0) {
			printf("%s: cannot connect\n", argv[0]);
			exit(3);
		}
		char req[64], buf[160];
		int len = snprintf(req, sizeof req, "%s\n", msg);
		write(fd, req, (size_t)len);
		ssize_t n = read(fd, buf, sizeof buf - 1);
		buf[n > 0 ? n : 0] = 0;
		printf("%s %s: %s", argv[0], msg, buf);
		answers++;
		close(fd);
	}
	return answers == 2 ? 0 : 1;
}
