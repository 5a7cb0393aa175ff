// file: data.txt=alpha\nbeta\ngamma\n
/* File descriptors over files: open, read, lseek in every direction,
 * fstat and stat sizes, write through O_CREAT|O_TRUNC and O_APPEND,
 * access, rename, unlink, dup and fdopen; plus the environment (setenv,
 * getenv, unsetenv) and path and token helpers. */
#define _GNU_SOURCE
#include <errno.h>
#include <fcntl.h>
#include <libgen.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

int main(void) {
	int fd = open("data.txt", O_RDONLY);
	char buf[64];
	ssize_t n = read(fd, buf, 5);
	printf("read %zd: %.5s\n", n, buf);
	printf("seek cur+1 -> %ld, end-6 -> %ld, set 0 -> %ld\n", (long)lseek(fd, 1, SEEK_CUR), (long)lseek(fd, -6, SEEK_END),
	       (long)lseek(fd, 0, SEEK_SET));
	n = read(fd, buf, sizeof buf);
	printf("whole file %zd bytes, last line %.5s", n, buf + n - 6);
	struct stat st;
	fstat(fd, &st);
	printf("\nfstat size %lld regular %d\n", (long long)st.st_size, S_ISREG(st.st_mode));
	int copy = dup(fd);
	printf("dup gives a new fd: %d, fcntl getfl rdonly: %d\n", copy != fd, (fcntl(fd, F_GETFL) & O_ACCMODE) == O_RDONLY);
	close(copy);
	close(fd);

	int out = open("out.txt", O_WRONLY | O_CREAT | O_TRUNC, 0644);
	write(out, "one\n", 4);
	close(out);
	out = open("out.txt", O_WRONLY | O_APPEND);
	write(out, "two\n", 4);
	close(out);
	stat("out.txt", &st);
	printf("out.txt size %lld, exists %d, missing %d errno %s\n", (long long)st.st_size, access("out.txt", F_OK) == 0,
	       access("nope.txt", F_OK), strerror(errno));
	FILE *f = fdopen(open("out.txt", O_RDONLY), "r");
	char line[16];
	while (fgets(line, sizeof line, f))
		printf("line: %s", line);
	fclose(f);
	printf("rename %d, old gone %d, unlink %d, again %d %s\n", rename("out.txt", "moved.txt"), access("out.txt", F_OK) != 0,
	       unlink("moved.txt"), unlink("moved.txt"), strerror(errno));
	printf("open missing: %d %s; O_EXCL on existing: %d %s\n", open("absent", O_RDONLY), strerror(errno),
	       open("data.txt", O_CREAT | O_EXCL | O_WRONLY, 0644), strerror(errno));

	setenv("AUGUR_TEST", "first", 1);
	setenv("AUGUR_TEST", "second", 0);
	printf("env %s", getenv("AUGUR_TEST"));
	setenv("AUGUR_TEST", "third", 1);
	printf(" %s", getenv("AUGUR_TEST"));
	unsetenv("AUGUR_TEST");
	printf(" %s, bad name %d\n", getenv("AUGUR_TEST") ? "set" : "unset", setenv("A=B", "x", 1));

	char path[] = "/usr/local/lib/libfoo.so", path2[] = "/usr/local/lib/libfoo.so";
	printf("basename %s dirname %s\n", basename(path), dirname(path2));
	char list[] = "a,b,,c";
	char *rest = list, *tok;
	while ((tok = strsep(&rest, ",")))
		printf("[%s]", tok);
	printf(" strcasestr %s\n", strcasestr("Hello World", "WORLD"));
	return 0;
}
