/* What a run leaves written is part of its output: the files it made,
 * changed or removed, against what it was given. The test gives every
 * sandbox program given.txt ("as given\n") and kept.txt ("kept\n").
 * Scratch files (/tmp), a file made and removed again, and a given file
 * written back with the same bytes are no output.
 *
 * expect-stdout:
 * wrote
 *
 * expect-written:
 * given.txt removed
 * out.txt 6 "hello\n"
 * results/a.txt 2 "1\n"
 */
#include <stdio.h>
#include <sys/stat.h>
#include <unistd.h>

static void write_file(const char *path, const char *text) {
	FILE *f = fopen(path, "w");
	if (f == NULL) {
		perror(path);
		return;
	}
	fputs(text, f);
	fclose(f);
}

int main(void) {
	write_file("out.txt", "hello\n");
	write_file("kept.txt", "kept\n");
	write_file("/tmp/scratch.txt", "scratch\n");
	write_file("gone.txt", "gone\n");
	unlink("gone.txt");
	unlink("given.txt");
	mkdir("results", 0755);
	write_file("results/a.txt", "1\n");
	puts("wrote");
	return 0;
}
