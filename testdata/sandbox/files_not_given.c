/* A program reads only the files augur is told to give it (--file,
 * augur.toml's files): here none, so every file it looks for is missing
 * and its own error handling runs. The execution keeps the names it
 * looked for in vain, each with the first place that looked
 * (vm.Result.Missing), so that the report can name those the host has
 * (analyzer.HostFiles): files it makes, and names in /tmp, are not kept.
 * TestSandboxedCalls checks the output and the names; cmd/augur's
 * TestFilesNotGivenAreNamed runs it beside a data.txt and a settings.conf.
 *
 * expect-stdout:
 * open data.txt: -1 No such file or directory
 * open data.txt again: -1
 * fopen settings.conf: null
 * stat notes.txt: -1
 * access notes.txt: -1
 * chmod run.sh: -1
 * open /tmp/scratch: -1
 * made out.txt and log.txt
 * open out.txt: a descriptor
 *
 * expect-missing:
 * /data.txt files_not_given.c:39
 * /notes.txt files_not_given.c:46
 * /run.sh files_not_given.c:48
 * /settings.conf files_not_given.c:43
 *
 * expect-written:
 * log.txt 0 ""
 * out.txt 0 ""
 */
#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

int main(void) {
	int fd = open("data.txt", O_RDONLY);
	printf("open data.txt: %d %s\n", fd, fd < 0 ? strerror(errno) : "");
	fd = open("./data.txt", O_RDONLY);
	printf("open data.txt again: %d\n", fd);
	FILE *f = fopen("settings.conf", "r");
	printf("fopen settings.conf: %s\n", f ? "a stream" : "null");
	struct stat st;
	printf("stat notes.txt: %d\n", stat("notes.txt", &st));
	printf("access notes.txt: %d\n", access("notes.txt", R_OK));
	printf("chmod run.sh: %d\n", chmod("run.sh", 0755));
	printf("open /tmp/scratch: %d\n", open("/tmp/scratch", O_RDONLY));
	int out = open("out.txt", O_WRONLY | O_CREAT, 0644);
	FILE *log = fopen("log.txt", "w");
	printf("made out.txt and log.txt\n");
	close(out);
	fclose(log);
	printf("open out.txt: %s\n", open("out.txt", O_RDONLY) >= 0 ? "a descriptor" : "none");
	return 0;
}
