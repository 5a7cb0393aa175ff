/* When a directory stream reads its directory, as glibc's does: at the
 * first readdir, not at opendir (a file made in between is listed), and
 * again after rewinddir; what it read it still returns once the program
 * closed dirfd's descriptor, and a read through the closed descriptor
 * ends the stream with EBADF, as does closedir. Names print in order:
 * the order of the entries is the file system's. Expected: the same
 * output as the native build. */
#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

static int byName(const void *a, const void *b) { return strcmp(*(char *const *)a, *(char *const *)b); }

static void touch(const char *path) {
	int fd = open(path, O_CREAT | O_WRONLY, 0644);
	close(fd);
}

/* rest prints, in name order, the entries d has left (but . and ..),
 * with first when it is one, and how the stream ended. */
static void rest(const char *label, DIR *d, const char *first) {
	char *names[16];
	int n = 0;
	if (first != NULL && strcmp(first, ".") != 0 && strcmp(first, "..") != 0)
		names[n++] = strdup(first);
	struct dirent *e;
	errno = 0;
	while ((e = readdir(d)) != NULL && n < 16) {
		if (strcmp(e->d_name, ".") != 0 && strcmp(e->d_name, "..") != 0)
			names[n++] = strdup(e->d_name);
	}
	int err = errno;
	qsort(names, n, sizeof names[0], byName);
	printf("%s:", label);
	for (int i = 0; i < n; i++) {
		printf(" %s", names[i]);
		free(names[i]);
	}
	printf(" (end: %s)\n", err == 0 ? "no error" : err == EBADF ? "EBADF" : strerror(err));
}

int main(void) {
	mkdir("d", 0755);
	touch("d/a");
	DIR *d = opendir("d");
	touch("d/b"); /* after opendir, before the first readdir */
	rest("first read", d, NULL);
	touch("d/c");
	rest("after the end", d, NULL);
	rewinddir(d);
	rest("rewound", d, NULL);

	rewinddir(d);
	close(dirfd(d)); /* before the stream reads again */
	rest("closed, then read", d, NULL);
	errno = 0;
	int r = closedir(d);
	printf("closedir after close: %d %s\n", r, errno == EBADF ? "EBADF" : "no error");

	d = opendir("d");
	struct dirent *e = readdir(d); /* reads the directory */
	char first[256];
	snprintf(first, sizeof first, "%s", e != NULL ? e->d_name : ".");
	close(dirfd(d));
	rest("read, closed, then the rest", d, first);
	closedir(d);
	return 0;
}
