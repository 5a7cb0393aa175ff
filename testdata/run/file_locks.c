/* File locks against Linux: flock between two opens of one file (shared
 * and exclusive, LOCK_NB), fcntl record locks (a process's own never
 * conflict, F_GETLK finds the region free), open-file-description locks
 * (two opens conflict, F_OFD_GETLK names the holder), lockf, pread and
 * pwrite (the offset stays), and two
 * threads that take turns with flock on opens of their own to update a
 * counter kept in the file and one in memory. Prints the same natively
 * and under augur, and has no data race: the flock orders the updates. */
#define _GNU_SOURCE
#include <errno.h>
#include <fcntl.h>
#include <pthread.h>
#include <stdio.h>
#include <string.h>
#include <sys/file.h>
#include <unistd.h>

static const char *path = "counter.dat";
static int in_memory;

static void *worker(void *arg) {
	(void)arg;
	int fd = open(path, O_RDWR);
	for (int i = 0; i < 40; i++) {
		flock(fd, LOCK_EX);
		int v;
		pread(fd, &v, sizeof v, 0);
		v++;
		pwrite(fd, &v, sizeof v, 0);
		in_memory++;
		flock(fd, LOCK_UN);
	}
	close(fd);
	return NULL;
}

static int region(int fd, int cmd, short type, off_t start, off_t len) {
	struct flock fl = {.l_type = type, .l_whence = SEEK_SET, .l_start = start, .l_len = len};
	return fcntl(fd, cmd, &fl);
}

int main(void) {
	int fd1 = open(path, O_RDWR | O_CREAT | O_TRUNC, 0644);
	int zero = 0;
	write(fd1, &zero, sizeof zero);
	int fd2 = open(path, O_RDWR);
	int got = -1;
	printf("pwrite %zd, pread %zd (%d), offset still %ld\n", pwrite(fd1, "!", 1, 9), pread(fd2, &got, sizeof got, 0), got,
	       (long)lseek(fd1, 0, SEEK_CUR));
	printf("pread past the end: %zd, of a pipe: ", pread(fd1, &got, sizeof got, 100));
	int pp[2];
	pipe(pp);
	printf("%zd %s\n", pread(pp[0], &got, 1, 0), strerror(errno));

	printf("flock ex: %d\n", flock(fd1, LOCK_EX));
	printf("other open ex nb: %d %s\n", flock(fd2, LOCK_EX | LOCK_NB), strerror(errno));
	printf("other open sh nb: %d %s\n", flock(fd2, LOCK_SH | LOCK_NB), strerror(errno));
	printf("unlock: %d\n", flock(fd1, LOCK_UN));
	printf("sh: %d, sh: %d\n", flock(fd2, LOCK_SH | LOCK_NB), flock(fd1, LOCK_SH | LOCK_NB));
	printf("upgrade while shared: %d %s\n", flock(fd1, LOCK_EX | LOCK_NB), strerror(errno));
	flock(fd1, LOCK_UN);
	flock(fd2, LOCK_UN);
	int dup1 = dup(fd1);
	flock(fd1, LOCK_EX);
	printf("a dup shares the lock: %d\n", flock(dup1, LOCK_EX | LOCK_NB));
	close(dup1);
	printf("still held after the dup's close: %d\n", flock(fd2, LOCK_EX | LOCK_NB));
	flock(fd1, LOCK_UN);

	printf("record lock: %d\n", region(fd1, F_SETLK, F_WRLCK, 0, 10));
	printf("same process, other fd: %d\n", region(fd2, F_SETLK, F_WRLCK, 5, 10));
	struct flock q = {.l_type = F_WRLCK, .l_whence = SEEK_SET, .l_start = 0, .l_len = 0};
	fcntl(fd2, F_GETLK, &q);
	printf("F_GETLK: free %d\n", q.l_type == F_UNLCK);
	printf("unlock a middle part: %d\n", region(fd1, F_SETLK, F_UNLCK, 2, 3));
	printf("lockf tlock: %d, test: %d\n", lockf(fd1, F_TLOCK, 4), lockf(fd1, F_TEST, 4));
	region(fd1, F_SETLK, F_UNLCK, 0, 0);

	printf("ofd lock: %d\n", region(fd1, F_OFD_SETLK, F_WRLCK, 0, 10));
	printf("other open: %d %s\n", region(fd2, F_OFD_SETLK, F_WRLCK, 5, 10), strerror(errno));
	printf("other open, after it: %d\n", region(fd2, F_OFD_SETLK, F_RDLCK, 10, 5));
	struct flock o = {.l_type = F_RDLCK, .l_whence = SEEK_SET, .l_start = 3, .l_len = 1};
	fcntl(fd2, F_OFD_GETLK, &o);
	printf("F_OFD_GETLK: type %d start %ld len %ld pid %d\n", o.l_type, (long)o.l_start, (long)o.l_len, o.l_pid);
	close(fd1);
	printf("after the holder's close: %d\n", region(fd2, F_OFD_SETLK, F_WRLCK, 0, 10));
	close(fd2);

	pthread_t a, b;
	pthread_create(&a, NULL, worker, NULL);
	pthread_create(&b, NULL, worker, NULL);
	pthread_join(a, NULL);
	pthread_join(b, NULL);
	int fd = open(path, O_RDONLY);
	int v = -1;
	read(fd, &v, sizeof v);
	close(fd);
	printf("counter in the file %d, in memory %d\n", v, in_memory);
	return 0;
}
