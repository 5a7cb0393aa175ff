/* The device files programs use. /dev/null as daemons and tests use it:
 * open and fopen it, write to it (nothing is kept), read it (empty), stat
 * and access it, send stdout to it with dup2 and back, and freopen stderr
 * onto it. /dev/urandom read for a seed, with read and with fread (the
 * bytes differ from native's, so only what a program may rely on is
 * printed: the count, and that two opens give different bytes), and
 * /dev/zero, which reads as zeros and takes writes. The output must be
 * native's. */
#include <stdio.h>
#include <unistd.h>
#include <fcntl.h>
#include <string.h>
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

	unsigned char a[16], b[16], z[8];
	int rnd = open("/dev/urandom", O_RDONLY);
	printf("urandom read %zd\n", read(rnd, a, sizeof a));
	close(rnd);
	FILE *r = fopen("/dev/urandom", "rb");
	printf("urandom fread %zu\n", fread(b, 1, sizeof b, r));
	fclose(r);
	printf("two opens differ %d\n", memcmp(a, b, sizeof a) != 0);
	int zero = open("/dev/zero", O_RDWR);
	memset(z, 7, sizeof z);
	printf("zero read %zd, sum %d, write %zd\n", read(zero, z, sizeof z), z[0] + z[3] + z[7], write(zero, "x", 1));
	close(zero);
	return 0;
}
