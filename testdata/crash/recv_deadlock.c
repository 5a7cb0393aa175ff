// expect: deadlock "all 3 live threads are blocked" line 0
/* Two ends of a socketpair each wait for the other to speak first: both
 * threads block in recv and main in pthread_join. The report says what
 * each waits for. */
#include <pthread.h>
#include <stdio.h>
#include <sys/socket.h>

static int sv[2];

static void *side(void *arg) {
	int fd = sv[(long)arg];
	char buf[8];
	if (recv(fd, buf, sizeof buf, 0) > 0) /* the other side never sends */
		send(fd, "hi", 2, 0);
	return NULL;
}

int main(void) {
	socketpair(AF_UNIX, SOCK_STREAM, 0, sv);
	pthread_t a, b;
	pthread_create(&a, NULL, side, (void *)0);
	pthread_create(&b, NULL, side, (void *)1);
	pthread_join(a, NULL);
	pthread_join(b, NULL);
	puts("unreachable");
	return 0;
}
