/* A client of eof_server.c. "leave": connect, send five bytes and exit
 * with the socket still open. "later": sleep a second (the server has
 * seen the first client's end by then), then exit, which ends the run. */
#include <arpa/inet.h>
#include <netinet/in.h>
#include <stdio.h>
#include <string.h>
#include <sys/socket.h>
#include <unistd.h>

int main(int argc, char **argv) {
	if (argc > 1 && strcmp(argv[1], "later") == 0) {
		sleep(1);
		printf("client: done\n");
		return 0;
	}
	int fd = socket(AF_INET, SOCK_STREAM, 0);
	struct sockaddr_in a;
	memset(&a, 0, sizeof a);
	a.sin_family = AF_INET;
	a.sin_port = htons(12101);
	a.sin_addr.s_addr = htonl(INADDR_LOOPBACK);
	if (connect(fd, (struct sockaddr *)&a, sizeof a) != 0)
		return 3;
	write(fd, "hello", 5);
	return 0; /* the socket stays open: the process's end closes it */
}
