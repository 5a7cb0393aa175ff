/* Named pipes against Linux: mkfifo, an open for reading that waits for
 * a writer thread's open, the data through the FIFO in order and end of
 * file after the writer closes; a nonblocking writer with no reader
 * (ENXIO); a nonblocking reader with no writer (end of file at once);
 * O_RDWR; stat's S_IFIFO, access, mkfifo over an existing name (EEXIST)
 * and unlink. Prints the same natively and under augur. */
#include <errno.h>
#include <fcntl.h>
#include <pthread.h>
#include <stdio.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

static void *writer(void *arg) {
	const char *path = arg;
	int fd = open(path, O_WRONLY);
	if (fd < 0) {
		perror("writer open");
		return NULL;
	}
	char line[32];
	for (int i = 1; i <= 5; i++) {
		int n = snprintf(line, sizeof line, "message %d\n", i);
		write(fd, line, n);
	}
	close(fd);
	return NULL;
}

int main(void) {
	const char *path = "chan.fifo";
	if (mkfifo(path, 0600) != 0) {
		perror("mkfifo");
		return 1;
	}
	printf("mkfifo again: %d %s\n", mkfifo(path, 0600), strerror(errno));
	struct stat st;
	stat(path, &st);
	printf("is a fifo: %d, access: %d\n", S_ISFIFO(st.st_mode) != 0, access(path, F_OK));

	errno = 0;
	int w = open(path, O_WRONLY | O_NONBLOCK);
	printf("nonblocking writer alone: %d %s\n", w, strerror(errno));
	int r = open(path, O_RDONLY | O_NONBLOCK);
	char buf[256];
	printf("nonblocking reader alone: fd %s, read %zd\n", r >= 0 ? "ok" : "failed", read(r, buf, sizeof buf));
	close(r);

	pthread_t th;
	pthread_create(&th, NULL, writer, (void *)path);
	int fd = open(path, O_RDONLY);
	size_t total = 0;
	ssize_t n;
	while ((n = read(fd, buf + total, sizeof buf - 1 - total)) > 0)
		total += n;
	buf[total] = 0;
	printf("read %zu bytes, then %zd:\n%s", total, n, buf);
	close(fd);
	pthread_join(th, NULL);

	int rw = open(path, O_RDWR);
	write(rw, "loop", 4);
	n = read(rw, buf, sizeof buf);
	printf("O_RDWR reads back %zd bytes: %.4s\n", n, buf);
	close(rw);

	printf("unlink: %d, access after: %d\n", unlink(path), access(path, F_OK));
	return 0;
}
