/* scripts/apps.sh's client program for memcached (augur's own code, not
 * memcached's), run beside the unmodified server with `--client`: it
 * connects over the virtual loopback, stores a key, sleeps two seconds
 * (memcached's clock ticks every second, on the main thread's event
 * loop), reads the key back, increments a key that is not there, and
 * exits, which ends the run (the server never exits by itself). */
#include <arpa/inet.h>
#include <netinet/in.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/socket.h>
#include <unistd.h>

enum { port = 11311 };

static int connectServer(void) {
	for (int tries = 0; tries < 200; tries++) {
		int fd = socket(AF_INET, SOCK_STREAM, 0);
		struct sockaddr_in a;
		memset(&a, 0, sizeof a);
		a.sin_family = AF_INET;
		a.sin_port = htons(port);
		a.sin_addr.s_addr = htonl(INADDR_LOOPBACK);
		if (connect(fd, (struct sockaddr *)&a, sizeof a) == 0)
			return fd;
		close(fd);
		usleep(10000); /* the server is not listening yet */
	}
	return -1;
}

/* request sends req and prints the reply, read until it holds until. */
static void request(int fd, const char *req, const char *until) {
	char buf[512];
	size_t have = 0;
	if (write(fd, req, strlen(req)) < 0)
		return;
	while (have < sizeof buf - 1) {
		ssize_t n = read(fd, buf + have, sizeof buf - 1 - have);
		if (n <= 0)
			break;
		have += (size_t)n;
		buf[have] = 0;
		if (strstr(buf, until))
			break;
	}
	buf[have] = 0;
	printf("%s", buf);
}

int main(void) {
	int fd = connectServer();
	if (fd < 0) {
		printf("client: cannot connect\n");
		exit(2);
	}
	request(fd, "set greeting 0 0 5\r\nhello\r\n", "\r\n");
	sleep(2);
	request(fd, "get greeting\r\n", "END\r\n");
	request(fd, "incr missing 1\r\n", "\r\n");
	close(fd);
	return 0;
}
