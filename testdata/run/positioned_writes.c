// Writes land where the file position says: after fseek, rewind, lseek,
// in "r+" and "a" streams and through write(2), as on a real file system.
// file: log.txt=first line\nsecond line\n
#include <fcntl.h>
#include <stdio.h>
#include <string.h>
#include <unistd.h>

static void show(const char *path) {
	char buf[128] = {0};
	FILE *f = fopen(path, "r");
	size_t n = fread(buf, 1, sizeof buf - 1, f);
	fclose(f);
	printf("%s (%zu bytes): [%s]\n", path, n, buf);
}

int main(void) {
	FILE *f = fopen("a.txt", "w");
	fputs("hello world\n", f);
	fseek(f, 6, SEEK_SET);
	fputs("WORLD", f);
	printf("ftell after the overwrite: %ld\n", ftell(f));
	fseek(f, 0, SEEK_END);
	printf("ftell at the end: %ld\n", ftell(f));
	fclose(f);
	show("a.txt");

	f = fopen("a.txt", "r+");
	fputs("J", f);
	fclose(f);
	f = fopen("a.txt", "a");
	fseek(f, 0, SEEK_SET); /* "a": writes still go at the end */
	fputs("more\n", f);
	fclose(f);
	show("a.txt");

	f = fopen("log.txt", "r+");
	fseek(f, 6, SEEK_SET);
	fputs("LINE", f);
	rewind(f);
	char line[32];
	fgets(line, sizeof line, f);
	printf("first line now: %s", line);
	fclose(f);

	int fd = open("b.txt", O_CREAT | O_RDWR, 0644);
	write(fd, "abcdef", 6);
	lseek(fd, 2, SEEK_SET);
	write(fd, "XY", 2);
	lseek(fd, 10, SEEK_SET); /* past the end: a hole of zeros */
	write(fd, "!", 1);
	printf("size after the hole: %ld\n", (long)lseek(fd, 0, SEEK_END));
	lseek(fd, 0, SEEK_SET);
	char buf[16] = {0};
	ssize_t n = read(fd, buf, 6);
	printf("read %zd: [%.*s]\n", n, (int)n, buf);
	close(fd);

	fd = open("b.txt", O_WRONLY | O_APPEND);
	write(fd, "+", 1);
	close(fd);
	printf("size after the append: %ld\n", (long)lseek(open("b.txt", O_RDONLY), 0, SEEK_END));
	return 0;
}
