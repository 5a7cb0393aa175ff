/* Files as tools and servers use them: two threads append records to one
 * log with O_APPEND; a configuration written to a temporary file and
 * renamed over; O_EXCL; flock; scandir; the *at calls on a directory
 * descriptor (mkdirat, openat, fstatat, faccessat, unlinkat with and
 * without AT_REMOVEDIR, renameat); pread and pwrite; chdir, getcwd and
 * realpath. The output must be native's. */
#define _GNU_SOURCE
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include <fcntl.h>
#include <dirent.h>
#include <errno.h>
#include <sys/stat.h>
#include <sys/file.h>
#include <pthread.h>

/* a log-structured writer: threads append records with O_APPEND, one reads back */
static int logfd;
static void *appender(void *arg) {
	char rec[32];
	for (int i = 0; i < 5; i++) {
		int n = snprintf(rec, sizeof rec, "%c%d\n", (int)(long)arg, i);
		write(logfd, rec, n);
	}
	return NULL;
}

int main(void) {
	mkdir("/tmp/augur_at_calls", 0755);
	logfd = open("/tmp/augur_at_calls/log", O_CREAT | O_WRONLY | O_APPEND | O_TRUNC, 0644);
	pthread_t a, b;
	pthread_create(&a, NULL, appender, (void *)'a');
	pthread_create(&b, NULL, appender, (void *)'b');
	pthread_join(a, NULL); pthread_join(b, NULL);
	struct stat st;
	fstat(logfd, &st);
	printf("log size %ld\n", (long)st.st_size);
	close(logfd);
	FILE *f = fopen("/tmp/augur_at_calls/log", "r");
	char line[16]; int lines = 0;
	while (fgets(line, sizeof line, f)) lines++;
	fclose(f);
	printf("lines %d\n", lines);
	/* atomic rename pattern */
	int tmp = open("/tmp/augur_at_calls/cfg.tmp", O_CREAT | O_WRONLY | O_EXCL, 0600);
	write(tmp, "v=2\n", 4);
	fsync(tmp); close(tmp);
	printf("rename %d\n", rename("/tmp/augur_at_calls/cfg.tmp", "/tmp/augur_at_calls/cfg"));
	errno = 0;
	printf("excl again %d EEXIST %d\n", open("/tmp/augur_at_calls/cfg", O_CREAT | O_EXCL | O_WRONLY, 0600), errno == EEXIST);
	/* flock advisory */
	int l1 = open("/tmp/augur_at_calls/cfg", O_RDONLY), l2 = open("/tmp/augur_at_calls/cfg", O_RDONLY);
	printf("flock %d nb %d ", flock(l1, LOCK_EX), flock(l2, LOCK_EX | LOCK_NB));
	printf("EWOULDBLOCK %d\n", errno == EWOULDBLOCK);
	flock(l1, LOCK_UN); close(l1); close(l2);
	/* directory listing sorted */
	struct dirent **names;
	int n = scandir("/tmp/augur_at_calls", &names, NULL, alphasort);
	for (int i = 0; i < n; i++) { printf("%s ", names[i]->d_name); free(names[i]); }
	free(names);
	printf("\n");
	/* openat / fstatat / unlinkat / mkdirat */
	int dfd = open("/tmp/augur_at_calls", O_RDONLY | O_DIRECTORY);
	int sub = mkdirat(dfd, "sub", 0755);
	int fa = openat(dfd, "sub/x", O_CREAT | O_WRONLY, 0644);
	write(fa, "xyz", 3); close(fa);
	struct stat s2;
	printf("mkdirat %d fstatat %d size %ld\n", sub, fstatat(dfd, "sub/x", &s2, 0), (long)s2.st_size);
	printf("faccessat %d\n", faccessat(dfd, "sub/x", R_OK, 0));
	printf("unlinkat %d rmdir-at %d\n", unlinkat(dfd, "sub/x", 0), unlinkat(dfd, "sub", AT_REMOVEDIR));
	printf("renameat %d\n", renameat(dfd, "cfg", dfd, "cfg2"));
	/* dup + lseek + pread/pwrite */
	int rw = open("/tmp/augur_at_calls/cfg2", O_RDWR);
	pwrite(rw, "V", 1, 0);
	char pb[8] = {0};
	pread(rw, pb, 4, 0);
	printf("pread %s", pb);
	printf("seek end %ld\n", (long)lseek(rw, 0, SEEK_END));
	close(rw);
	/* realpath, getcwd, chdir */
	chdir("/tmp/augur_at_calls");
	char cwd[64];
	printf("cwd %s ", getcwd(cwd, sizeof cwd));
	char *rp = realpath("./../fsx/log", NULL);
	printf("realpath %s\n", rp);
	free(rp);
	unlink("/tmp/augur_at_calls/log"); unlink("/tmp/augur_at_calls/cfg2");
	printf("rmdir %d\n", rmdir("/tmp/augur_at_calls"));
	closedir(fdopendir(dfd));
	return 0;
}
