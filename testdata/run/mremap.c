/* mremap: an anonymous mapping grows and moves with MREMAP_MAYMOVE,
 * keeping its bytes, with zeros after them; it shrinks in place; a
 * pointer that is not a mapping's start is EINVAL; a shared file mapping
 * that grows writes its new page back into the file at munmap. The
 * output must be native's. */
#define _GNU_SOURCE
#include <stdio.h>
#include <string.h>
#include <errno.h>
#include <fcntl.h>
#include <unistd.h>
#include <sys/mman.h>
int main(void) {
	char *p = mmap(NULL, 4096, PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
	strcpy(p, "kept across mremap");
	char *q = mremap(p, 4096, 3 * 4096, MREMAP_MAYMOVE);
	printf("%s, tail zero %d\n", q, q[3 * 4096 - 1] == 0);
	q[3 * 4096 - 1] = 'x';
	char *r = mremap(q, 3 * 4096, 4096, 0);
	printf("shrink in place %d: %s\n", r == q, r);
	errno = 0;
	printf("bad address: %d EINVAL %d\n", mremap(p + 1, 4096, 8192, MREMAP_MAYMOVE) == MAP_FAILED, errno == EINVAL);
	munmap(r, 4096);
	int fd = open("/tmp/augur_mremap_probe", O_CREAT | O_RDWR | O_TRUNC, 0600);
	ftruncate(fd, 8192);
	char *f = mmap(NULL, 4096, PROT_READ | PROT_WRITE, MAP_SHARED, fd, 0);
	f = mremap(f, 4096, 8192, MREMAP_MAYMOVE);
	memcpy(f + 4096, "second page", 11);
	munmap(f, 8192);
	char buf[12] = {0};
	pread(fd, buf, 11, 4096);
	printf("written back: %s\n", buf);
	close(fd);
	unlink("/tmp/augur_mremap_probe");
	return 0;
}
