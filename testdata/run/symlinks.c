/* Symbolic links as programs use them: a "current" link switched from one
 * version of a file to the next by renaming a new link over it, a link to
 * a directory walked through (".." after it goes up from where it led), a
 * link read with readlink and described with lstat while stat describes
 * what it names, a link to nothing that stat refuses and an open with
 * O_CREAT fills, two links that name each other (ELOOP), O_NOFOLLOW,
 * realpath and chdir through links, a listing that shows links as links,
 * and the refusals of symlink, readlink, mkdir, rmdir and rename. The
 * output must be native's. */
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

static char top[] = "/tmp/symlinksXXXXXX";

static void put(const char *path, const char *text) {
	int fd = open(path, O_CREAT | O_WRONLY | O_TRUNC, 0644);
	if (fd < 0) {
		printf("create %s: %s\n", path, strerror(errno));
		return;
	}
	if (write(fd, text, strlen(text)) < 0)
		printf("write %s: %s\n", path, strerror(errno));
	close(fd);
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

static const char *kind(mode_t m) {
	return S_ISLNK(m) ? "link" : S_ISDIR(m) ? "directory" : S_ISREG(m) ? "file" : "other";
}

/* describe prints what stat and lstat say of path. */
static void describe(const char *path) {
	struct stat st;
	if (stat(path, &st) != 0)
		printf("stat %s: %s\n", path, strerror(errno));
	else
		printf("stat %s: %s of %lld bytes\n", path, kind(st.st_mode), S_ISDIR(st.st_mode) ? 0LL : (long long)st.st_size);
	if (lstat(path, &st) != 0)
		printf("lstat %s: %s\n", path, strerror(errno));
	else
		printf("lstat %s: %s of %lld bytes\n", path, kind(st.st_mode), S_ISDIR(st.st_mode) ? 0LL : (long long)st.st_size);
}

static void show_link(const char *path, size_t size) {
	char buf[64];
	memset(buf, '#', sizeof buf);
	ssize_t n = readlink(path, buf, size);
	if (n < 0)
		printf("readlink %s: %s\n", path, strerror(errno));
	else
		printf("readlink %s (%zu bytes): %zd \"%.*s\" then '%c'\n", path, size, n, (int)n, buf, buf[n]);
}

static void check(const char *what, int r) { printf("%s: %d %s\n", what, r, r ? strerror(errno) : ""); }

static int by_name(const void *a, const void *b) { return strcmp(*(char *const *)a, *(char *const *)b); }

/* list prints dir's entries, sorted (the kernel's order is the file
 * system's), with their kinds. */
static void list(const char *dir) {
	DIR *d = opendir(dir);
	if (!d) {
		printf("opendir %s: %s\n", dir, strerror(errno));
		return;
	}
	char *names[32];
	int n = 0;
	struct dirent *e;
	while ((e = readdir(d)) && n < 32) {
		if (strcmp(e->d_name, ".") == 0 || strcmp(e->d_name, "..") == 0)
			continue;
		const char *k = e->d_type == DT_LNK ? "link" : e->d_type == DT_DIR ? "dir" : e->d_type == DT_REG ? "file" : "?";
		if (asprintf(&names[n], "%s(%s)", e->d_name, k) > 0)
			n++;
	}
	closedir(d);
	qsort(names, n, sizeof names[0], by_name);
	printf("%s:", dir);
	for (int i = 0; i < n; i++) {
		printf(" %s", names[i]);
		free(names[i]);
	}
	printf("\n");
}

/* here prints path relative to the test's directory. */
static void here(const char *what, const char *path) {
	size_t n = strlen(top);
	if (path && strncmp(path, top, n) == 0)
		printf("%s: TOP%s\n", what, path + n);
	else
		printf("%s: %s\n", what, path ? path : strerror(errno));
}

int main(void) {
	if (!mkdtemp(top) || chdir(top) != 0)
		return 1;

	/* Versions behind a "current" link, switched by renaming a new link
	 * over it: readers always find a whole file. */
	put("v1.conf", "version one");
	put("v2.conf", "version two!");
	check("symlink v1.conf current", symlink("v1.conf", "current"));
	slurp("current");
	describe("current");
	show_link("current", 64);
	show_link("current", 3);
	check("symlink v2.conf current.new", symlink("v2.conf", "current.new"));
	check("rename current.new current", rename("current.new", "current"));
	slurp("current");
	show_link("current", 64);
	describe("current.new");

	/* Writing through a link writes what it names. */
	int fd = open("current", O_WRONLY | O_APPEND);
	if (fd >= 0) {
		if (write(fd, " (edited)", 9) < 0)
			printf("append: %s\n", strerror(errno));
		close(fd);
	}
	slurp("v2.conf");

	/* A link to a directory, a relative link inside it, and "..". */
	check("mkdir data", mkdir("data", 0755));
	check("mkdir data/2026", mkdir("data/2026", 0755));
	put("data/2026/log.txt", "entries");
	check("symlink data/2026 latest", symlink("data/2026", "latest"));
	slurp("latest/log.txt");
	check("symlink log.txt data/2026/today", symlink("log.txt", "data/2026/today"));
	slurp("latest/today");
	slurp("latest/../2026/log.txt");
	describe("latest");
	describe("latest/");
	describe("latest/.");
	put("latest/new.txt", "made through the link");
	slurp("data/2026/new.txt");

	/* A link to nothing: stat refuses it, lstat sees it, O_CREAT fills it. */
	check("symlink missing.txt dangling", symlink("missing.txt", "dangling"));
	describe("dangling");
	check("access dangling", access("dangling", F_OK));
	fd = open("dangling", O_CREAT | O_EXCL | O_WRONLY, 0644);
	printf("open dangling O_CREAT|O_EXCL: %s\n", fd < 0 ? strerror(errno) : "opened");
	if (fd >= 0)
		close(fd);
	put("dangling", "filled");
	slurp("missing.txt");
	describe("dangling");

	/* Links that name each other, and O_NOFOLLOW. */
	check("symlink loop.b loop.a", symlink("loop.b", "loop.a"));
	check("symlink loop.a loop.b", symlink("loop.a", "loop.b"));
	describe("loop.a");
	slurp("loop.a");
	fd = open("current", O_RDONLY | O_NOFOLLOW);
	printf("open current O_NOFOLLOW: %s\n", fd < 0 ? strerror(errno) : "opened");
	if (fd >= 0)
		close(fd);
	fd = open("v1.conf", O_RDONLY | O_NOFOLLOW);
	printf("open v1.conf O_NOFOLLOW: %s\n", fd < 0 ? strerror(errno) : "opened");
	if (fd >= 0)
		close(fd);

	/* realpath and chdir resolve links; getcwd says where they led. */
	char buf[PATH_MAX];
	here("realpath latest/today", realpath("latest/today", buf));
	here("realpath latest/../v1.conf", realpath("latest/../v1.conf", buf));
	here("realpath dangling", realpath("dangling", buf));
	here("realpath loop.a", realpath("loop.a", buf));
	check("chdir latest", chdir("latest"));
	here("getcwd", getcwd(buf, sizeof buf));
	slurp("today");
	check("chdir ..", chdir(".."));
	here("getcwd", getcwd(buf, sizeof buf));
	check("chdir top", chdir(top));

	/* The *at forms. */
	int dir = open("data", O_RDONLY | O_DIRECTORY);
	check("symlinkat 2026/log.txt data/log", symlinkat("2026/log.txt", dir, "log"));
	ssize_t n = readlinkat(dir, "log", buf, sizeof buf);
	printf("readlinkat data/log: %zd \"%.*s\"\n", n, (int)(n > 0 ? n : 0), buf);
	struct stat st;
	check("fstatat data/log nofollow", fstatat(dir, "log", &st, AT_SYMLINK_NOFOLLOW));
	printf("  %s\n", kind(st.st_mode));
	check("fstatat data/log", fstatat(dir, "log", &st, 0));
	printf("  %s of %lld bytes\n", kind(st.st_mode), (long long)st.st_size);
	close(dir);

	list(".");
	list("latest");

	/* Refusals. */
	check("symlink v1.conf v2.conf", symlink("v1.conf", "v2.conf"));
	check("symlink \"\" empty", symlink("", "empty"));
	check("symlink x nodir/link", symlink("x", "nodir/link"));
	show_link("v1.conf", 64);
	show_link("nothing", 64);
	show_link("current", 0);
	check("mkdir current", mkdir("current", 0755));
	check("rmdir latest", rmdir("latest"));
	check("rmdir data/2026", rmdir("data/2026"));
	check("rename current data", rename("current", "data"));
	check("rename v1.conf data", rename("v1.conf", "data"));

	/* Removing a link leaves what it names. */
	check("unlink latest", unlink("latest"));
	describe("latest");
	slurp("data/2026/log.txt");
	check("unlink current", unlink("current"));
	slurp("v2.conf");
	list(".");

	/* Clean up, so that nothing is left in /tmp. */
	const char *names[] = {"data/2026/today", "data/2026/log.txt", "data/2026/new.txt", "data/log", "dangling",
			       "missing.txt", "loop.a", "loop.b", "v1.conf", "v2.conf"};
	for (size_t i = 0; i < sizeof names / sizeof names[0]; i++)
		if (unlink(names[i]) != 0)
			printf("unlink %s: %s\n", names[i], strerror(errno));
	rmdir("data/2026");
	rmdir("data");
	chdir("/");
	check("rmdir top", rmdir(top));
	return 0;
}
