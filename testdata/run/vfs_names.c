/* Names in the virtual file system as on a real disk: a relative name and
 * the absolute names built from getcwd ("//", "/./") reach one file, each
 * file has its own inode number (kept by rename), a directory opens for
 * reading (to fsync or fstat it) but not for writing, mkdir and rmdir
 * make and remove directories, a file cannot be made in a directory that
 * does not exist, openat resolves a relative name in its directory, and a
 * process never conflicts with its own record locks (F_GETLK reports
 * F_UNLCK, which SQLite's lock table relies on). */
#define _GNU_SOURCE
#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

static char cwd[4096];

static const char *in(const char *sep, const char *name) {
	static char buf[2][4200];
	static int which;
	which ^= 1;
	snprintf(buf[which], sizeof buf[which], "%s%s%s", cwd, sep, name);
	return buf[which];
}

static unsigned long ino(const char *path) {
	struct stat st;
	return stat(path, &st) == 0 ? (unsigned long)st.st_ino : 0;
}

static const char *err(int rc) { return rc < 0 ? strerror(errno) : "ok"; }

int main(void) {
	if (!getcwd(cwd, sizeof cwd))
		return 1;
	int fd = open("notes.txt", O_RDWR | O_CREAT | O_TRUNC, 0644);
	write(fd, "hello, disk\n", 12);
	struct stat st;
	fstat(fd, &st);
	printf("same file: %d %d %d\n", ino(in("/", "notes.txt")) == st.st_ino, ino(in("//", "notes.txt")) == st.st_ino,
	       ino(in("/./", "notes.txt")) == st.st_ino);
	int other = open(in("//", "other.txt"), O_WRONLY | O_CREAT, 0644);
	unsigned long otherIno = ino("other.txt");
	printf("other file: own inode %d, size through the absolute name %lld\n", otherIno != st.st_ino && otherIno != 0,
	       (long long)(stat(in("/", "notes.txt"), &st), st.st_size));
	printf("rename keeps the inode: %d\n", rename("other.txt", "moved.txt") == 0 && ino("moved.txt") == otherIno);
	close(other);

	int dir = open(cwd, O_RDONLY);
	char c;
	printf("open the directory: %s", err(dir));
	printf(", directory %d", fstat(dir, &st) == 0 && S_ISDIR(st.st_mode));
	printf(", read: %s", err((int)read(dir, &c, 1)));
	printf(", fsync: %s\n", err(fsync(dir)));
	close(dir);
	printf("open it for writing: %s\n", err(open(cwd, O_RDWR)));
	printf("O_DIRECTORY on a file: %s\n", err(open("notes.txt", O_RDONLY | O_DIRECTORY)));
	printf("a file in a missing directory: %s\n", err(open("nodir/x.txt", O_WRONLY | O_CREAT, 0644)));
	printf("fopen there: %s\n", fopen("nodir/x.txt", "w") ? "ok" : strerror(errno));

	int at = open(cwd, O_RDONLY | O_DIRECTORY);
	int viaAt = openat(at, "notes.txt", O_RDONLY);
	printf("openat in the directory: %d", viaAt >= 0 && fstat(viaAt, &st) == 0 && st.st_size == 12);
	printf(", relative to a file: %s\n", err(openat(viaAt, "notes.txt", O_RDONLY)));
	close(viaAt);
	close(at);

	printf("mkdir: %s", err(mkdir("sub", 0755)));
	printf(", again: %s", err(mkdir("sub", 0755)));
	printf(", a directory: %d\n", stat("sub", &st) == 0 && S_ISDIR(st.st_mode));
	close(open("sub/a.txt", O_WRONLY | O_CREAT, 0644));
	printf("rmdir with a file in it: %s", err(rmdir("sub")));
	printf(", unlink the directory: %s", err(unlink("sub")));
	printf(", rmdir a file: %s\n", err(rmdir("sub/a.txt")));
	unlink(in("/", "sub/a.txt"));
	printf("rmdir when empty: %s", err(rmdir("sub")));
	printf(", then stat: %s\n", err(stat("sub", &st)));

	struct flock l = {.l_type = F_WRLCK, .l_whence = SEEK_SET, .l_start = 0, .l_len = 1};
	int rc = fcntl(fd, F_SETLK, &l);
	l.l_type = F_WRLCK;
	int again = open("notes.txt", O_RDWR);
	printf("lock: %s, our own lock seen as free: %d\n", err(rc), fcntl(again, F_GETLK, &l) == 0 && l.l_type == F_UNLCK);
	close(again);
	close(fd);

	unlink(in("//", "notes.txt"));
	unlink("moved.txt");
	printf("after unlink: %s\n", err(open("notes.txt", O_RDONLY)));
	return 0;
}
