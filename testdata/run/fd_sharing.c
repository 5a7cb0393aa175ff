/* Descriptors as POSIX numbers and shares them. write(2) to 1, to 2 and
 * to a dup of 1 reaches the terminal; open and dup give the
 * lowest free number, F_DUPFD the lowest from its argument; a dup shares
 * its original's open file description (the offset, O_NONBLOCK) but has
 * its own FD_CLOEXEC; dup2 onto standard output sends stdout's stream,
 * buffer and all, to the new file until it is put back; dup3 of a number
 * onto itself is EINVAL; and epoll forgets a descriptor once its file is
 * closed, so the number given again can be added anew. Pointed at a
 * file of the program's, stdout takes printf and puts with it; and once
 * descriptor 1 is closed, what stdout writes is lost until open gives the
 * number to another file, which then takes it. The output must be
 * native's. */
#define _GNU_SOURCE
#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <string.h>
#include <sys/epoll.h>
#include <unistd.h>

/* say writes s to descriptor fd with write(2). */
static void say(int fd, const char *s) {
	if (write(fd, s, strlen(s)) != (ssize_t)strlen(s))
		printf("write to %d failed\n", fd);
}

int main(void) {
	printf("before\n");
	fflush(stdout);
	say(1, "write(1) reaches the terminal\n");
	say(2, "write(2) reaches standard error\n");
	int saved = dup(1);
	say(saved, "so does a write to a dup of 1\n");
	dprintf(saved, "and dprintf to it\n");
	int fd = open("captured.txt", O_WRONLY | O_CREAT | O_TRUNC, 0644);
	dup2(fd, 1);
	close(fd);
	printf("printf goes to the file\n");
	fprintf(stdout, "so does fprintf to stdout\n");
	puts("and puts");
	fflush(stdout);
	dup2(saved, 1);
	close(saved);
	printf("back on the terminal\n");
	FILE *f = fopen("captured.txt", "r");
	char line[80];
	while (fgets(line, sizeof line, f))
		printf("captured: %s", line);
	fclose(f);

	int a = open("captured.txt", O_RDONLY), b = open("captured.txt", O_RDONLY);
	printf("open gives %d and %d\n", a, b);
	close(a);
	int c = open("captured.txt", O_RDONLY);
	printf("after a close, open gives %d again\n", c);
	int d = fcntl(b, F_DUPFD, 100);
	printf("F_DUPFD from 100: %d, FD_CLOEXEC %d\n", d, fcntl(d, F_GETFD));
	fcntl(d, F_SETFD, FD_CLOEXEC);
	printf("after F_SETFD: %d, the original's %d\n", fcntl(d, F_GETFD), fcntl(b, F_GETFD));
	int e = fcntl(b, F_DUPFD_CLOEXEC, 100);
	printf("F_DUPFD_CLOEXEC: %d, FD_CLOEXEC %d\n", e, fcntl(e, F_GETFD));
	char ch = 0;
	lseek(b, 3, SEEK_SET);
	if (read(d, &ch, 1) != 1)
		return 1;
	printf("a dup reads at its original's offset: '%c', which is now %ld\n", ch, (long)lseek(b, 0, SEEK_CUR));
	errno = 0;
	printf("dup3 onto itself: %d, errno EINVAL %d\n", dup3(b, b, 0), errno == EINVAL);
	printf("dup2 onto itself: %d\n", dup2(b, b));
	close(b), close(c), close(d), close(e);

	int p[2];
	if (pipe2(p, O_CLOEXEC | O_NONBLOCK) != 0)
		return 1;
	printf("pipe2: %d %d, FD_CLOEXEC %d, O_NONBLOCK %d\n", p[0], p[1], fcntl(p[0], F_GETFD),
	       (fcntl(p[0], F_GETFL) & O_NONBLOCK) != 0);
	int q = dup(p[0]);
	fcntl(q, F_SETFL, 0);
	printf("a dup's F_SETFL clears the original's O_NONBLOCK: %d; the dup's FD_CLOEXEC %d\n",
	       (fcntl(p[0], F_GETFL) & O_NONBLOCK) != 0, fcntl(q, F_GETFD));
	close(q);

	int ep = epoll_create1(EPOLL_CLOEXEC);
	printf("epoll_create1: FD_CLOEXEC %d\n", fcntl(ep, F_GETFD));
	int r[2];
	if (pipe(r) != 0)
		return 1;
	struct epoll_event ev = {.events = EPOLLIN, .data.u64 = 1};
	printf("add %d: %d\n", r[0], epoll_ctl(ep, EPOLL_CTL_ADD, r[0], &ev));
	close(r[0]);
	close(r[1]);
	int s[2];
	if (pipe(s) != 0)
		return 1;
	ev.data.u64 = 2;
	printf("pipe gives %d again; adding it: %d\n", s[0], epoll_ctl(ep, EPOLL_CTL_ADD, s[0], &ev));
	if (write(s[1], "x", 1) != 1)
		return 1;
	struct epoll_event out[4];
	int n = epoll_wait(ep, out, 4, 0);
	printf("epoll_wait: %d ready, data %llu\n", n, n > 0 ? (unsigned long long)out[0].data.u64 : 0ULL);

	FILE *terminal = stdout;
	stdout = fopen("pointed.txt", "w");
	printf("printf to the FILE stdout points at\n");
	puts("puts too");
	fclose(stdout);
	stdout = terminal;
	fflush(stdout);
	close(1);
	printf("lost: descriptor 1 is closed\n");
	fflush(stdout);
	int one = open("reopened.txt", O_WRONLY | O_CREAT | O_TRUNC, 0644);
	printf("open gave %d, and stdout writes to it\n", one);
	fprintf(stdout, "fprintf too\n");
	putchar('!');
	putchar('\n');
	fflush(stdout);
	const char *names[] = {"pointed.txt", "reopened.txt"};
	for (int i = 0; i < 2; i++) {
		FILE *in = fopen(names[i], "r");
		while (fgets(line, sizeof line, in))
			fprintf(stderr, "%s: %s", names[i], line);
		fclose(in);
	}
	return 0;
}
