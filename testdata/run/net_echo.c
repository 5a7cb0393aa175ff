/* A server and its clients in one process, over augur's loopback: the
 * server polls its listening socket and its connections and echoes what
 * each client sends; the clients resolve "localhost" with getaddrinfo.
 * The output must be native's, and nothing races. */
#include <arpa/inet.h>
#include <netdb.h>
#include <netinet/in.h>
#include <poll.h>
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/socket.h>
#include <unistd.h>

#define CLIENTS 3
static int port;

static void *client(void *arg) {
	long id = (long)arg;
	struct addrinfo hints = {0}, *res;
	hints.ai_socktype = SOCK_STREAM;
	char svc[16];
	snprintf(svc, sizeof svc, "%d", port);
	int e = getaddrinfo("localhost", svc, &hints, &res);
	if (e != 0) { fprintf(stderr, "getaddrinfo: %s\n", gai_strerror(e)); exit(1); }
	int fd = socket(res->ai_family, res->ai_socktype, res->ai_protocol);
	if (connect(fd, res->ai_addr, res->ai_addrlen) != 0) { perror("connect"); exit(1); }
	freeaddrinfo(res);
	char msg[32], back[32];
	int n = snprintf(msg, sizeof msg, "hello %ld", id);
	send(fd, msg, n, 0);
	int got = 0;
	while (got < n) {
		int k = recv(fd, back + got, sizeof back - got, 0);
		if (k <= 0) break;
		got += k;
	}
	back[got] = 0;
	close(fd);
	return strdup(back);
}

int main(void) {
	int lfd = socket(AF_INET, SOCK_STREAM, 0);
	int one = 1;
	setsockopt(lfd, SOL_SOCKET, SO_REUSEADDR, &one, sizeof one);
	struct sockaddr_in a = {0};
	a.sin_family = AF_INET;
	a.sin_addr.s_addr = htonl(INADDR_LOOPBACK);
	a.sin_port = 0;
	if (bind(lfd, (struct sockaddr *)&a, sizeof a) != 0) { perror("bind"); return 1; }
	listen(lfd, 8);
	socklen_t len = sizeof a;
	getsockname(lfd, (struct sockaddr *)&a, &len);
	port = ntohs(a.sin_port);
	pthread_t t[CLIENTS];
	for (long i = 0; i < CLIENTS; i++)
		pthread_create(&t[i], NULL, client, (void *)i);
	struct pollfd p[1 + CLIENTS];
	int n = 1, done = 0;
	p[0].fd = lfd; p[0].events = POLLIN;
	while (done < CLIENTS) {
		if (poll(p, n, -1) < 0) { perror("poll"); return 1; }
		if (p[0].revents & POLLIN) {
			int c = accept(lfd, NULL, NULL);
			p[n].fd = c; p[n].events = POLLIN; p[n].revents = 0; n++;
		}
		for (int i = 1; i < n; i++) {
			if (p[i].fd < 0 || !(p[i].revents & (POLLIN | POLLHUP))) continue;
			char buf[64];
			int k = recv(p[i].fd, buf, sizeof buf, 0);
			if (k <= 0) { close(p[i].fd); p[i].fd = -1; done++; continue; }
			send(p[i].fd, buf, k, 0);
		}
	}
	for (int i = 0; i < CLIENTS; i++) {
		char *r;
		pthread_join(t[i], (void **)&r);
		printf("client %d got \"%s\"\n", i, r);
		free(r);
	}
	close(lfd);
	return 0;
}
