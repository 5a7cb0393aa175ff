/* System calls given a null path: the kernel, which reads the path, fails
 * the call with EFAULT, and the program goes on (a clean-up that unlinks
 * a name never set, as pigz's does after an early error). fopen fails the
 * same way, through its open(2). */
#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

static void say(const char *call, long r) {
	printf("%s: %ld (%s)\n", call, r, r == -1 ? strerror(errno) : "ok");
	errno = 0;
}

int main(void) {
	char *volatile none = NULL; // not a constant: the calls are made
	struct stat st;
	say("unlink", unlink(none));
	say("rmdir", rmdir(none));
	say("remove", remove(none));
	say("stat", stat(none, &st));
	say("access", access(none, F_OK));
	say("mkdir", mkdir(none, 0700));
	say("rename from", rename(none, "to"));
	say("rename to", rename("from", none));
	say("open", open(none, O_RDONLY));
	say("chdir", chdir(none));
	say("mkfifo", mkfifo(none, 0600));
	FILE *f = fopen(none, "r");
	printf("fopen: %s (%s)\n", f ? "opened" : "failed", strerror(errno));
	return 0;
}
