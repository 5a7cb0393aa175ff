/* Shared memory and file mappings against Linux: a System V segment
 * attached twice is one memory (a thread writes through one attach, main
 * reads through the other after the join), IPC_STAT's size and attach
 * count, IPC_CREAT|IPC_EXCL over an existing key, removal; a POSIX shared
 * memory object sized with ftruncate, mapped MAP_SHARED, written and read
 * back with read() after munmap; a file mapped MAP_PRIVATE (the file does
 * not change) and MAP_SHARED with msync (it does); mapping errors; and
 * what one descriptor of a file reads after another wrote to it.
 * Prints the same natively and under augur. */
// file: data.txt=0123456789abcdef\n
#include <errno.h>
#include <fcntl.h>
#include <pthread.h>
#include <stdio.h>
#include <string.h>
#include <sys/ipc.h>
#include <sys/mman.h>
#include <sys/shm.h>
#include <sys/stat.h>
#include <unistd.h>

static int segment;

static void *producer(void *arg) {
	(void)arg;
	int *p = shmat(segment, NULL, 0);
	for (int i = 0; i < 8; i++)
		p[i] = i * i;
	shmdt(p);
	return NULL;
}

static void sysv(void) {
	key_t key = 0x5e000000 | getpid(); /* a key of this run's own */
	segment = shmget(key, 64, IPC_CREAT | IPC_EXCL | 0600);
	printf("shmget: %s\n", segment >= 0 ? "ok" : strerror(errno));
	printf("exclusive again: %d %s\n", shmget(key, 64, IPC_CREAT | IPC_EXCL | 0600), strerror(errno));
	printf("same key: %d\n", shmget(key, 32, 0600) == segment);
	int *mine = shmat(segment, NULL, 0);
	pthread_t th;
	pthread_create(&th, NULL, producer, NULL);
	pthread_join(th, NULL);
	printf("through the other attach:");
	for (int i = 0; i < 8; i++)
		printf(" %d", mine[i]);
	printf("\n");
	struct shmid_ds ds;
	shmctl(segment, IPC_STAT, &ds);
	printf("size %zu, attached %lu\n", (size_t)ds.shm_segsz, (unsigned long)ds.shm_nattch);
	shmdt(mine);
	printf("remove: %d\n", shmctl(segment, IPC_RMID, NULL));
	printf("key after removal: %d %s\n", shmget(key, 64, 0600), strerror(errno));
}

static void posix(void) {
	char name[64];
	snprintf(name, sizeof name, "/augur-test-%d", getpid());
	int fd = shm_open(name, O_CREAT | O_RDWR | O_EXCL, 0600);
	if (fd < 0) {
		perror("shm_open");
		return;
	}
	ftruncate(fd, 4096);
	char *p = mmap(NULL, 4096, PROT_READ | PROT_WRITE, MAP_SHARED, fd, 0);
	strcpy(p, "written through the mapping");
	munmap(p, 4096);
	char buf[64] = {0};
	pread(fd, buf, sizeof buf - 1, 0);
	printf("read back: %s\n", buf);
	close(fd);
	printf("shm_open of a bad name: %d %s\n", shm_open("a/b", O_RDONLY, 0), strerror(errno));
	printf("shm_unlink: %d, again: %d\n", shm_unlink(name), shm_unlink(name));
}

static void files(void) {
	int fd = open("data.txt", O_RDWR);
	if (fd < 0) {
		perror("data.txt");
		return;
	}
	char *priv = mmap(NULL, 17, PROT_READ | PROT_WRITE, MAP_PRIVATE, fd, 0);
	printf("private map: %.16s\n", priv);
	priv[0] = 'X';
	munmap(priv, 17);
	char *shared = mmap(NULL, 17, PROT_READ | PROT_WRITE, MAP_SHARED, fd, 0);
	printf("after a private write: %.16s\n", shared);
	memcpy(shared + 10, "ABCDEF", 6);
	msync(shared, 17, MS_SYNC);
	char buf[32] = {0};
	pread(fd, buf, 16, 0);
	printf("after msync: %s\n", buf);
	munmap(shared, 17);
	printf("unaligned offset: %s\n", mmap(NULL, 4, PROT_READ, MAP_PRIVATE, fd, 3) == MAP_FAILED ? strerror(errno) : "mapped");
	close(fd);
	int wr = open("data.txt", O_WRONLY);
	printf("write-only descriptor: %s\n", mmap(NULL, 4, PROT_READ, MAP_SHARED, wr, 0) == MAP_FAILED ? strerror(errno) : "mapped");
	close(wr);
	printf("bad descriptor: %s\n", mmap(NULL, 4, PROT_READ, MAP_SHARED, 99, 0) == MAP_FAILED ? strerror(errno) : "mapped");
}

static void two_descriptors(void) {
	int w = open("log.txt", O_CREAT | O_WRONLY | O_TRUNC, 0644);
	int r = open("log.txt", O_RDONLY);
	char buf[16] = {0};
	write(w, "hello", 5);
	printf("read %zd: %s\n", read(r, buf, sizeof buf - 1), buf);
	write(w, " world", 6);
	memset(buf, 0, sizeof buf);
	printf("read %zd: %s\n", read(r, buf, sizeof buf - 1), buf);
	printf("at the end: %zd\n", read(r, buf, sizeof buf - 1));
	close(w);
	close(r);
}

int main(void) {
	sysv();
	posix();
	files();
	two_descriptors();
	return 0;
}
