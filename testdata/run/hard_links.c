/* Hard links as programs use them: a second name of a file that reads
 * what the first writes, a link count and inode number shared by both, a
 * lock file taken by linking a private file to a common name (the second
 * taker is refused with EEXIST), a file that lives on under one name once
 * the other is removed, a truncating open or a chmod through one name
 * seen through the other, a rename of one name onto the other that
 * changes nothing, and link's refusals. The output must be native's. */
#define _GNU_SOURCE
#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

static void show(const char *path) {
	struct stat st;
	if (stat(path, &st) != 0) {
		printf("%s: %s\n", path, strerror(errno));
		return;
	}
	printf("%s: %lld bytes, %lu links, mode %04o\n", path, (long long)st.st_size, (unsigned long)st.st_nlink,
	       (unsigned)(st.st_mode & 07777));
}

static void slurp(const char *path) {
	char buf[64] = {0};
	int fd = open(path, O_RDONLY);
	if (fd < 0) {
		printf("read %s: %s\n", path, strerror(errno));
		return;
	}
	ssize_t n = read(fd, buf, sizeof buf - 1);
	close(fd);
	printf("read %s: %zd \"%s\"\n", path, n, buf);
}

static void try_link(const char *from, const char *to) {
	int r = link(from, to);
	printf("link %s %s: %d %s\n", from, to, r, r ? strerror(errno) : "");
}

int main(void) {
	char dir[] = "/tmp/linksXXXXXX";
	if (!mkdtemp(dir) || chdir(dir) != 0)
		return 1;
	umask(022);

	int fd = open("data", O_CREAT | O_WRONLY, 0644);
	write(fd, "first", 5);
	try_link("data", "alias");
	write(fd, " second", 7); /* after the link: both names see it */
	close(fd);
	show("data");
	show("alias");
	slurp("alias");
	struct stat a, b;
	stat("data", &a);
	stat("alias", &b);
	printf("same inode: %d\n", a.st_ino == b.st_ino);

	/* A lock file: each taker links its own file to "lock". */
	int mine = open("taker1", O_CREAT | O_WRONLY, 0644);
	close(mine);
	int theirs = open("taker2", O_CREAT | O_WRONLY, 0644);
	close(theirs);
	try_link("taker1", "lock");
	try_link("taker2", "lock");
	show("taker1");
	unlink("lock");
	show("taker1");
	try_link("taker2", "lock");

	/* A truncating open and a chmod through one name. */
	fd = open("alias", O_WRONLY | O_TRUNC);
	write(fd, "new", 3);
	close(fd);
	slurp("data");
	chmod("data", 0600);
	show("alias");
	FILE *f = fopen("data", "w");
	fputs("from stdio", f);
	fclose(f);
	slurp("alias");

	/* A rename of a name onto another name of the same file. */
	printf("rename: %d\n", rename("alias", "data"));
	show("data");
	show("alias");

	/* One name removed: the file lives on under the other. */
	unlink("data");
	show("data");
	show("alias");
	slurp("alias");

	/* Refusals. */
	try_link("missing", "other");
	try_link("alias", "taker1");
	mkdir("sub", 0755);
	try_link("sub", "subdir");
	try_link("alias", "nodir/alias");
	printf("linkat: %d\n", linkat(AT_FDCWD, "alias", AT_FDCWD, "sub/alias", 0));
	show("sub/alias");

	unlink("alias");
	unlink("sub/alias");
	unlink("taker1");
	unlink("taker2");
	unlink("lock");
	rmdir("sub");
	chdir("/");
	printf("removed: %d\n", rmdir(dir));
	return 0;
}
