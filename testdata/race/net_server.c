/* A thread per connection, as small servers are written: each handler
 * reads a request, answers it and counts it in a statistic no lock
 * guards. The clients are threads of the same program, connected over
 * augur's loopback. The count races; the replies do not. */
#include <arpa/inet.h>
#include <netinet/in.h>
#include <pthread.h>
#include <stdio.h>
#include <string.h>
#include <sys/socket.h>
#include <unistd.h>

static int served;
static struct sockaddr_in addr;

static void *handler(void *arg) {
	int fd = (int)(long)arg;
	char req[32];
	int n = recv(fd, req, sizeof req, 0);
	if (n > 0)
		send(fd, "ok", 2, 0);
	served++; // race: served output-differs
	close(fd);
	return NULL;
}

static void *client(void *arg) {
	(void)arg;
	int fd = socket(AF_INET, SOCK_STREAM, 0);
	connect(fd, (struct sockaddr *)&addr, sizeof addr);
	send(fd, "get", 3, 0);
	char reply[8];
	recv(fd, reply, sizeof reply, 0);
	close(fd);
	return NULL;
}

int main(void) {
	int lfd = socket(AF_INET, SOCK_STREAM, 0);
	addr.sin_family = AF_INET;
	addr.sin_addr.s_addr = htonl(INADDR_LOOPBACK);
	bind(lfd, (struct sockaddr *)&addr, sizeof addr);
	socklen_t len = sizeof addr;
	getsockname(lfd, (struct sockaddr *)&addr, &len);
	listen(lfd, 4);
	pthread_t c[2], h[2];
	for (int i = 0; i < 2; i++)
		pthread_create(&c[i], NULL, client, NULL);
	for (int i = 0; i < 2; i++)
		pthread_create(&h[i], NULL, handler, (void *)(long)accept(lfd, NULL, NULL));
	for (int i = 0; i < 2; i++) {
		pthread_join(c[i], NULL);
		pthread_join(h[i], NULL);
	}
	printf("served %d\n", served);
	return 0;
}
