/* The heap and anonymous mappings (analyzer/exec/libc's heap.go and mmap.go),
 * compared with a native run: what glibc and Linux promise, not what
 * they happen to do (malloc_usable_size may round up, so only its lower
 * bound is printed). */
#include <errno.h>
#include <malloc.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>

static int all_zero(const unsigned char *p, size_t n) {
	for (size_t i = 0; i < n; i++)
		if (p[i] != 0)
			return 0;
	return 1;
}

int main(void) {
	/* realloc keeps the contents up to the smaller size, from NULL it
	 * allocates, and to 0 it frees. */
	char *s = realloc(NULL, 8);
	strcpy(s, "abcdefg");
	s = realloc(s, 4096);
	printf("grown: %s\n", s);
	s = realloc(s, 3);
	printf("shrunk: %.3s\n", s);
	printf("usable >= 3: %d\n", malloc_usable_size(s) >= 3);
	printf("realloc to 0: %s\n", realloc(s, 0) == NULL ? "NULL" : "a pointer");

	/* calloc zeroes, and refuses a size that overflows. */
	unsigned char *z = calloc(100, 8);
	printf("calloc zeroed: %d\n", all_zero(z, 800));
	free(z);
	printf("calloc overflow: %s\n", calloc(SIZE_MAX / 2, 4) == NULL ? "NULL" : "a pointer");

	/* posix_memalign and aligned_alloc return aligned, usable memory. */
	void *a = NULL;
	int rc = posix_memalign(&a, 64, 200);
	printf("posix_memalign: %d, aligned %d\n", rc, ((uintptr_t)a & 63) == 0);
	memset(a, 7, 200);
	free(a);
	char *b = aligned_alloc(16, 64);
	printf("aligned_alloc aligned: %d\n", ((uintptr_t)b & 15) == 0);
	free(b);

	/* An anonymous mapping is zeroed and writable; munmap of it
	 * succeeds, and munmap of an address inside it that is not
	 * page-aligned fails with EINVAL. */
	size_t len = 3 * 4096;
	unsigned char *m = mmap(NULL, len, PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
	if (m == MAP_FAILED) {
		perror("mmap");
		return 1;
	}
	printf("mapping zeroed: %d\n", all_zero(m, len));
	m[0] = 1;
	m[len - 1] = 2;
	printf("ends: %d %d\n", m[0], m[len - 1]);
	errno = 0;
	printf("munmap inside: %d, EINVAL %d\n", munmap(m + 1, 4096), errno == EINVAL);
	printf("mprotect: %d\n", mprotect(m, len, PROT_READ | PROT_WRITE));
	printf("munmap: %d\n", munmap(m, len));
	return 0;
}
