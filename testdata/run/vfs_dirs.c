/* Walking directories as on a real disk: opendir and readdir list a
 * directory's files and subdirectories (with "." and "..", printed here in
 * name order: the order of the entries is the file system's), with their
 * types and inode numbers; rewinddir starts over, fdopendir and dirfd go
 * between streams and descriptors; chdir moves the working directory, so
 * relative names, getcwd and realpath follow it; and the errors of a
 * missing directory, a file taken for one (also on the way to a name:
 * ENOTDIR) and a short getcwd buffer. */
#define _GNU_SOURCE
#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

static int byName(const void *a, const void *b) { return strcmp(*(char *const *)a, *(char *const *)b); }

/* list prints the entries of d in name order, with their types, and
 * checks each one's inode number against stat's. */
static void list(const char *label, DIR *d, const char *dir) {
	char *names[32];
	int n = 0;
	struct dirent *e;
	while ((e = readdir(d)) != NULL && n < 32) {
		char path[PATH_MAX], entry[300];
		snprintf(path, sizeof path, "%s/%s", dir, e->d_name);
		struct stat st;
		int inoOK = stat(path, &st) == 0 && st.st_ino == e->d_ino;
		snprintf(entry, sizeof entry, "%s%s%s", e->d_name, e->d_type == DT_DIR ? "/" : "", inoOK ? "" : " (inode differs)");
		names[n++] = strdup(entry);
	}
	qsort(names, n, sizeof names[0], byName);
	printf("%s:", label);
	for (int i = 0; i < n; i++) {
		printf(" %s", names[i]);
		free(names[i]);
	}
	printf("\n");
}

static void touch(const char *path) { close(open(path, O_WRONLY | O_CREAT, 0644)); }

static const char *err(int rc) { return rc < 0 ? strerror(errno) : "ok"; }

int main(void) {
	char start[PATH_MAX], now[PATH_MAX], want[PATH_MAX + 16];
	if (!getcwd(start, sizeof start))
		return 1;
	mkdir("tree", 0755);
	mkdir("tree/sub", 0755);
	mkdir("tree/empty", 0755);
	touch("tree/b.txt");
	touch("tree/a.txt");
	touch("tree/sub/c.txt");

	DIR *d = opendir("tree");
	list("tree", d, "tree");
	rewinddir(d);
	int count = 0;
	while (readdir(d))
		count++;
	printf("after rewinddir: %d entries, dirfd is a directory: %d\n", count,
	       fstat(dirfd(d), &(struct stat){0}) == 0);
	closedir(d);
	int fd = open("tree/sub", O_RDONLY | O_DIRECTORY);
	d = fdopendir(fd);
	list("tree/sub through fdopendir", d, "tree/sub");
	closedir(d);
	d = opendir("tree/empty");
	list("tree/empty", d, "tree/empty");
	closedir(d);

	printf("opendir of a missing directory: %s\n", opendir("nowhere") ? "ok" : strerror(errno));
	printf("opendir of a file: %s\n", opendir("tree/a.txt") ? "ok" : strerror(errno));
	printf("chdir to a file: %s\n", err(chdir("tree/a.txt")));
	struct stat through;
	FILE *made = fopen("tree/a.txt/new", "w");
	printf("through a file: stat %s, mkdir %s, open %s, fopen %s, chdir %s, missing below it %s\n",
	       err(stat("tree/a.txt/x", &through)), err(mkdir("tree/a.txt/d", 0755)), err(open("tree/a.txt/x", O_RDONLY)),
	       made ? "ok" : strerror(errno), err(chdir("tree/a.txt/d")), err(access("tree/nowhere/x", F_OK)));

	printf("chdir tree/sub: %s", err(chdir("tree/sub")));
	getcwd(now, sizeof now);
	/* the start may be the root, as in augur's sandbox */
	const char *base = strcmp(start, "/") == 0 ? "" : start;
	snprintf(want, sizeof want, "%s/tree/sub", base);
	printf(", getcwd follows: %d", strcmp(now, want) == 0);
	printf(", a relative name there: %s", err(access("c.txt", F_OK)));
	char *real = realpath("../a.txt", NULL);
	snprintf(want, sizeof want, "%s/tree/a.txt", base);
	printf(", realpath of ../a.txt: %d\n", real && strcmp(real, want) == 0);
	free(real);
	char small[2];
	printf("getcwd into 2 bytes: %s\n", getcwd(small, sizeof small) ? "ok" : strerror(errno));
	char *mine = getcwd(NULL, 0);
	printf("getcwd allocating: %d\n", mine && strcmp(mine, now) == 0);
	free(mine);
	int up = open("..", O_RDONLY);
	printf("fchdir ..: %s", err(fchdir(up)));
	close(up);
	printf(", now in tree: %d\n", access("b.txt", F_OK) == 0);

	chdir(start);
	unlink("tree/sub/c.txt");
	unlink("tree/a.txt");
	unlink("tree/b.txt");
	rmdir("tree/sub");
	rmdir("tree/empty");
	printf("cleaned up: %s\n", err(rmdir("tree")));
	return 0;
}
