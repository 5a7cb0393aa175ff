/* A server that reads each connection to its end (augur run --client):
 * it prints what a client sent and "closed" once the connection ends.
 * eof_client.c's first copy exits without closing its socket; the end of
 * its process must close it, or the server never sees the end.
 *
 * augur: prints "server: closed after 5 bytes" (eof_client.c leave)
 */
#include <arpa/inet.h>
#include <netinet/in.h>
#include <stdio.h>
#include <string.h>
#include <sys/socket.h>
#include <unistd.h>

int main(void) {
	int s = socket(AF_INET, SOCK_STREAM, 0);
	struct sockaddr_in a;
	memset(&a, 0, sizeof a);
	a.sin_family = AF_INET;
	a.sin_port = htons(12101);
	a.sin_addr.s_addr = htonl(INADDR_LOOPBACK);
	if (bind(s, (struct sockaddr *)&a, sizeof a) != 0 || listen(s, 8) != 0) {
		perror("server");
		return 1;
	}
	for (;;) {
		int c = accept(s, NULL, NULL);
		if (c < 0)
			continue;
		char buf[64];
		size_t total = 0;
		ssize_t n;
		while ((n = read(c, buf, sizeof buf)) > 0)
			total += (size_t)n;
		printf("server: closed after %zu bytes\n", total);
		fflush(stdout);
		close(c);
	}
}
