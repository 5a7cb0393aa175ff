/* Files removed or replaced while a descriptor holds them, as programs
 * use them: a scratch file unlinked as soon as it is made and then
 * written and read through its descriptor (mkstemp's idiom), its name
 * free for a new file at once; a new version renamed over a file another
 * descriptor still reads; a file renamed while open, written through the
 * old descriptor; a stream of an unlinked file; one name of a hard link
 * removed under an open descriptor; and a shared mapping of an unlinked
 * file. The output must be native's. */
#define _GNU_SOURCE
#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <sys/stat.h>
#include <unistd.h>

static void fshow(const char *what, int fd) {
	struct stat st;
	if (fstat(fd, &st) != 0) {
		printf("%s: %s\n", what, strerror(errno));
		return;
	}
	printf("%s: %lld bytes, %lu links\n", what, (long long)st.st_size, (unsigned long)st.st_nlink);
}

static void readAt(const char *what, int fd) {
	char buf[64] = {0};
	ssize_t n = pread(fd, buf, sizeof buf - 1, 0);
	printf("%s: %zd '%s'\n", what, n, buf);
}

static void exists(const char *path) {
	printf("%s %s\n", path, access(path, F_OK) == 0 ? "exists" : strerror(errno));
}

static void scratch(void) {
	int fd = open("scratch", O_CREAT | O_RDWR | O_TRUNC, 0600);
	unlink("scratch");
	write(fd, "kept after unlink", 17);
	fshow("scratch fd", fd);
	readAt("scratch fd", fd);
	exists("scratch");
	int again = open("scratch", O_CREAT | O_RDWR | O_EXCL, 0600);
	printf("a new scratch: %s\n", again >= 0 ? "made" : strerror(errno));
	write(again, "new", 3);
	readAt("old scratch fd", fd);
	readAt("new scratch fd", again);
	close(fd);
	close(again);
	unlink("scratch");
}

static void replaced(void) {
	int out = open("data", O_CREAT | O_WRONLY | O_TRUNC, 0644);
	write(out, "version 1", 9);
	close(out);
	int reader = open("data", O_RDONLY);
	out = open("data.tmp", O_CREAT | O_WRONLY | O_TRUNC, 0644);
	write(out, "version 2", 9);
	close(out);
	printf("rename over data: %d\n", rename("data.tmp", "data"));
	readAt("reader of the old data", reader);
	fshow("reader of the old data", reader);
	int fresh = open("data", O_RDONLY);
	readAt("data opened again", fresh);
	fshow("data opened again", fresh);
	close(reader);
	close(fresh);
	unlink("data");
}

static void moved(void) {
	int fd = open("before", O_CREAT | O_RDWR | O_TRUNC, 0644);
	write(fd, "one ", 4);
	printf("rename before to after: %d\n", rename("before", "after"));
	write(fd, "two", 3);
	exists("before");
	int other = open("after", O_RDONLY);
	readAt("after", other);
	close(other);
	close(fd);
	unlink("after");
}

static void stream(void) {
	FILE *f = fopen("log", "w+");
	unlink("log");
	fprintf(f, "line %d\n", 42);
	rewind(f);
	char line[32] = {0};
	printf("stream of an unlinked file: %s", fgets(line, sizeof line, f) ? line : "(nothing)\n");
	exists("log");
	fclose(f);
}

static void linked(void) {
	int fd = open("first", O_CREAT | O_RDWR | O_TRUNC, 0644);
	link("first", "second");
	unlink("first");
	fshow("fd of first, unlinked", fd);
	write(fd, "through fd", 10);
	int other = open("second", O_RDONLY);
	readAt("second", other);
	close(other);
	close(fd);
	unlink("second");
}

static void mapped(void) {
	int fd = open("shared", O_CREAT | O_RDWR | O_TRUNC, 0600);
	ftruncate(fd, 16);
	unlink("shared");
	char *p = mmap(NULL, 16, PROT_READ | PROT_WRITE, MAP_SHARED, fd, 0);
	if (p == MAP_FAILED) {
		printf("mmap: %s\n", strerror(errno));
		return;
	}
	strcpy(p, "mapped bytes");
	munmap(p, 16);
	readAt("mapping written back", fd);
	close(fd);
	exists("shared");
}

int main(void) {
	scratch();
	replaced();
	moved();
	stream();
	linked();
	mapped();
	return 0;
}
