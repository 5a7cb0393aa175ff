/* Calls that fail return -1 as an int, and the program compares what it
 * got with -1 (or tests it for < 0): a stat of a missing file, an open of
 * one, access, unlink, rmdir and rename of missing names, mkdir of one that
 * exists, and descriptor calls on a descriptor never opened. Each line
 * prints the comparison, errno and what a check of the result decides,
 * as a program that creates its configuration when stat says it is missing
 * does. */
#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

static void show(const char *what, int r) {
	printf("%-8s r=%d  r==-1 %d  r<0 %d  errno %s\n", what, r, r == -1, r < 0, strerror(errno));
	errno = 0;
}

int main(void) {
	struct stat st;
	show("stat", stat("missing.cfg", &st));
	show("lstat", lstat("missing.cfg", &st));
	show("open", open("missing.cfg", O_RDONLY));
	show("access", access("missing.cfg", R_OK));
	show("unlink", unlink("missing.cfg"));
	show("rmdir", rmdir("missing.dir"));
	show("rename", rename("missing.cfg", "other.cfg"));
	show("close", close(77));
	show("dup", dup(77));
	show("fstat", fstat(77, &st));
	show("fcntl", fcntl(77, F_GETFL));
	mkdir("made", 0755);
	show("mkdir", mkdir("made", 0755));
	rmdir("made");

	/* The pattern that needs it: make the file when stat says it is not
	 * there, then read it back. */
	if (stat("settings.cfg", &st) == -1) {
		FILE *f = fopen("settings.cfg", "w");
		fputs("threads = 2\n", f);
		fclose(f);
	}
	char line[64] = "";
	FILE *f = fopen("settings.cfg", "r");
	if (f == NULL || fgets(line, sizeof line, f) == NULL) {
		puts("settings.cfg: could not read it back");
		return 1;
	}
	fclose(f);
	unlink("settings.cfg");
	printf("settings.cfg: %s", line);
	return 0;
}
