/* A client of eof_server.c.
 * "leave": connect, send five bytes and exit with the socket still open.
 * "threads": the same, but first start a thread asleep for five seconds,
 * one reading the connection (the server never answers) and one waiting
 * on a condition no one signals. The exit ends all three where they
 * wait: none may print.
 * "later N": sleep N seconds (the server has seen the first client's end
 * by then, and the sleeper of "threads" would have woken), then exit,
 * which ends the run. */
#include <arpa/inet.h>
#include <netinet/in.h>
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/socket.h>
#include <unistd.h>

static int fd;
static pthread_mutex_t mu = PTHREAD_MUTEX_INITIALIZER;
static pthread_cond_t never = PTHREAD_COND_INITIALIZER;

static void *sleeper(void *arg) {
	(void)arg;
	sleep(5);
	printf("client: sleeper woke\n");
	return NULL;
}

static void *reader(void *arg) {
	(void)arg;
	char c;
	ssize_t n = read(fd, &c, 1);
	printf("client: reader woke (%zd)\n", n);
	return NULL;
}

static void *waiter(void *arg) {
	(void)arg;
	pthread_mutex_lock(&mu);
	pthread_cond_wait(&never, &mu);
	pthread_mutex_unlock(&mu);
	printf("client: waiter woke\n");
	return NULL;
}

int main(int argc, char **argv) {
	if (argc > 2 && strcmp(argv[1], "later") == 0) {
		sleep((unsigned)atoi(argv[2]));
		printf("client: done\n");
		return 0;
	}
	fd = socket(AF_INET, SOCK_STREAM, 0);
	struct sockaddr_in a;
	memset(&a, 0, sizeof a);
	a.sin_family = AF_INET;
	a.sin_port = htons(12101);
	a.sin_addr.s_addr = htonl(INADDR_LOOPBACK);
	if (connect(fd, (struct sockaddr *)&a, sizeof a) != 0)
		return 3;
	write(fd, "hello", 5);
	if (argc > 1 && strcmp(argv[1], "threads") == 0) {
		pthread_t t[3];
		pthread_create(&t[0], NULL, sleeper, NULL);
		pthread_create(&t[1], NULL, reader, NULL);
		pthread_create(&t[2], NULL, waiter, NULL);
		usleep(1000); /* the three are waiting by now */
		printf("client: leaving\n");
	}
	return 0; /* the socket stays open: the process's end closes it */
}
