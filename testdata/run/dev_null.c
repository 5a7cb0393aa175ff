/* /dev/null as daemons and tests use it: open and fopen it, write to it
 * (nothing is kept), read it (empty), stat and access it, send stdout to
 * it with dup2 and back, and freopen stderr onto it. The output must be
 * native's. */
#include <stdio.h>
#include <unistd.h>
#include <fcntl.h>
#include <sys/stat.h>
int main(void) {
	int fd = open("/dev/null", O_RDWR);
	printf("open %d write %zd read %zd\n", fd, write(fd, "abc", 3), read(fd, (char[4]){0}, 4));
	FILE *f = fopen("/dev/null", "w");
	fprintf(f, "gone\n");
	fclose(f);
	struct stat st;
	printf("stat %d size %lld access %d\n", stat("/dev/null", &st), (long long)st.st_size, access("/dev/null", W_OK));
	fflush(stdout);
	int saved = dup(1);
	dup2(fd, 1);
	printf("silenced\n");
	fflush(stdout);
	dup2(saved, 1);
	f = freopen("/dev/null", "w", stderr);
	fprintf(stderr, "quiet error\n");
	printf("done %d\n", f != NULL);
	return 0;
}
