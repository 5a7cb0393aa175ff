/* A server for client programs (augur run/analyze --client): it listens on
 * the loopback, serves each connection on a thread of its own and never
 * exits; its clients (echo_client.c) end the run.
 *
 * Each connection's thread answers one line with the number of answers
 * given before it, and counts its own in `served` without a lock after
 * the answer has gone out. Two connections served one after the other
 * race there, because the second client connects as soon as it has read
 * the first answer: in the other order, the second answer carries the
 * same number as the first, and a client prints it.
 *
 * augur: race served output-differs (read at echo_server.c:37, write at
 * echo_server.c:43)
 */
#include <arpa/inet.h>
#include <netinet/in.h>
#include <pthread.h>
#include <stdio.h>
#include <string.h>
#include <sys/socket.h>
#include <unistd.h>

enum { port = 12100 };

static int served;

static void *serve(void *arg) {
	int fd = (int)(long)arg;
	char line[128];
	ssize_t n = read(fd, line, sizeof line - 1);
	if (n <= 0) {
		close(fd);
		return NULL;
	}
	line[n] = 0;
	char reply[160];
	int len = snprintf(reply, sizeof reply, "echo %d: %s", served, line);
	if (write(fd, reply, (size_t)len) != len) {
		close(fd);
		return NULL;
	}
	close(fd);
	served++;
	return NULL;
}

int main(void) {
	int s = socket(AF_INET, SOCK_STREAM, 0);
	int on = 1;
	setsockopt(s, SOL_SOCKET, SO_REUSEADDR, &on, sizeof on);
	struct sockaddr_in a;
	memset(&a, 0, sizeof a);
	a.sin_family = AF_INET;
	a.sin_port = htons(port);
	a.sin_addr.s_addr = htonl(INADDR_LOOPBACK);
	if (bind(s, (struct sockaddr *)&a, sizeof a) != 0 || listen(s, 8) != 0) {
		perror("server");
		return 1;
	}
	printf("server: listening\n");
	fflush(stdout);
	for (;;) {
		int c = accept(s, NULL, NULL);
		if (c < 0)
			continue;
		pthread_t t;
		pthread_create(&t, NULL, serve, (void *)(long)c);
		pthread_detach(t);
	}
}
