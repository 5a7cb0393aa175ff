/* File permission bits as tools and installers use them: the umask, a
 * creation mode under it (open, creat, fopen, mkdir, mkstemp), chmod and
 * fchmod (with the set-user-ID bit), a rename that keeps the mode, an
 * O_TRUNC open that keeps it, a new file under a removed one's name that
 * does not. The output must be native's. */
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

static void show(const char *path) {
	struct stat st;
	if (stat(path, &st) != 0) {
		printf("%s: no such file\n", path);
		return;
	}
	printf("%s: %s %04o\n", path, S_ISDIR(st.st_mode) ? "dir" : S_ISREG(st.st_mode) ? "file" : "other",
	       (unsigned)(st.st_mode & 07777));
}

int main(void) {
	char dir[] = "/tmp/modesXXXXXX";
	if (!mkdtemp(dir))
		return 1;
	if (chdir(dir) != 0)
		return 1;
	umask(022); /* the one augur starts with; natively, the shell's */
	int fd = open("a", O_CREAT | O_WRONLY, 0600);
	close(fd);
	show("a");
	fd = open("b", O_CREAT | O_WRONLY, 0777);
	show("b");
	fchmod(fd, 0640);
	close(fd);
	show("b");
	FILE *f = fopen("c", "w");
	fclose(f);
	show("c");
	chmod("c", 04755);
	show("c");
	printf("chmod of a missing file: %d\n", chmod("missing", 0600));
	mkdir("d", 0700);
	show("d");
	chmod("d", 0711);
	show("d");
	printf("umask was %03o\n", (unsigned)umask(077));
	fd = creat("e", 0666);
	close(fd);
	show("e");
	mkdir("g", 0777);
	show("g");
	umask(022);
	rename("a", "h");
	show("h");
	show("a");
	fd = open("h", O_CREAT | O_WRONLY | O_TRUNC, 0666);
	close(fd);
	show("h"); /* an existing file keeps its mode */
	unlink("h");
	fd = open("h", O_CREAT | O_WRONLY, 0666);
	close(fd);
	show("h"); /* a new file under the old name gets its own */
	char tmp[64];
	snprintf(tmp, sizeof tmp, "%s/tXXXXXX", dir);
	fd = mkstemp(tmp);
	struct stat st;
	fstat(fd, &st);
	printf("mkstemp: %04o\n", (unsigned)(st.st_mode & 07777));
	close(fd);
	unlink(tmp);
	fstat(1, &st);
	const char *names[] = {"b", "c", "e", "h"};
	for (int i = 0; i < 4; i++)
		unlink(names[i]);
	rmdir("d");
	rmdir("g");
	chdir("/");
	printf("rmdir: %d\n", rmdir(dir));
	return 0;
}
