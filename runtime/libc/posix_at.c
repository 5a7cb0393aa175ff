/* The *at calls on paths: mkdirat, fstatat, unlinkat, faccessat,
 * renameat, renameat2, readlinkat, fchmodat, fchownat, linkat, symlinkat
 * and mkfifoat. A relative path names a file in the directory open as
 * the descriptor given (AT_FDCWD: the working directory); the VM's
 * __augur_dir_path gives that directory's path, and the call goes on as
 * its plain form on the joined path. (openat is the VM's own.) */
#define _GNU_SOURCE
#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <stdio.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#define WEAK __attribute__((weak))

int __augur_dir_path(int fd, char *buf, size_t size);

/* at joins dirfd's directory and path into out (PATH_MAX bytes): path
 * itself when it is absolute or dirfd is AT_FDCWD. 0, or -1 with errno. */
static int at(int dirfd, const char *path, char *out) {
	if (!path) {
		errno = EFAULT;
		return -1;
	}
	if (path[0] == '/' || dirfd == AT_FDCWD) {
		if (strlen(path) >= PATH_MAX) {
			errno = ENAMETOOLONG;
			return -1;
		}
		strcpy(out, path);
		return 0;
	}
	if (__augur_dir_path(dirfd, out, PATH_MAX) != 0)
		return -1;
	size_t n = strlen(out);
	if (n + 1 + strlen(path) >= PATH_MAX) {
		errno = ENAMETOOLONG;
		return -1;
	}
	snprintf(out + n, PATH_MAX - n, "%s%s", n > 0 && out[n - 1] == '/' ? "" : "/", path);
	return 0;
}

WEAK int mkdirat(int dirfd, const char *path, mode_t mode) {
	char p[PATH_MAX];
	return at(dirfd, path, p) ? -1 : mkdir(p, mode);
}

WEAK int fstatat(int dirfd, const char *path, struct stat *st, int flags) {
	if ((flags & AT_EMPTY_PATH) && path[0] == 0)
		return dirfd == AT_FDCWD ? stat(".", st) : fstat(dirfd, st);
	char p[PATH_MAX];
	if (at(dirfd, path, p))
		return -1;
	return flags & AT_SYMLINK_NOFOLLOW ? lstat(p, st) : stat(p, st);
}
WEAK int fstatat64(int dirfd, const char *path, struct stat64 *st, int flags) { return fstatat(dirfd, path, (struct stat *)st, flags); }
WEAK int newfstatat(int dirfd, const char *path, struct stat *st, int flags) { return fstatat(dirfd, path, st, flags); }

WEAK int unlinkat(int dirfd, const char *path, int flags) {
	char p[PATH_MAX];
	if (flags & ~AT_REMOVEDIR) {
		errno = EINVAL;
		return -1;
	}
	if (at(dirfd, path, p))
		return -1;
	return flags & AT_REMOVEDIR ? rmdir(p) : unlink(p);
}

WEAK int faccessat(int dirfd, const char *path, int mode, int flags) {
	(void)flags; /* AT_EACCESS: one user, so the real and effective ids agree */
	char p[PATH_MAX];
	return at(dirfd, path, p) ? -1 : access(p, mode);
}

WEAK int renameat2(int olddirfd, const char *oldpath, int newdirfd, const char *newpath, unsigned flags) {
	char from[PATH_MAX], to[PATH_MAX];
	if (flags & ~(unsigned)RENAME_NOREPLACE) {
		errno = EINVAL; /* RENAME_EXCHANGE and RENAME_WHITEOUT are not modeled */
		return -1;
	}
	if (at(olddirfd, oldpath, from) || at(newdirfd, newpath, to))
		return -1;
	if ((flags & RENAME_NOREPLACE) && access(to, F_OK) == 0) {
		errno = EEXIST;
		return -1;
	}
	return rename(from, to);
}
WEAK int renameat(int olddirfd, const char *oldpath, int newdirfd, const char *newpath) {
	return renameat2(olddirfd, oldpath, newdirfd, newpath, 0);
}

WEAK ssize_t readlinkat(int dirfd, const char *path, char *buf, size_t size) {
	char p[PATH_MAX];
	return at(dirfd, path, p) ? -1 : readlink(p, buf, size);
}

WEAK int fchmodat(int dirfd, const char *path, mode_t mode, int flags) {
	(void)flags;
	char p[PATH_MAX];
	return at(dirfd, path, p) ? -1 : chmod(p, mode);
}

WEAK int fchownat(int dirfd, const char *path, uid_t owner, gid_t group, int flags) {
	(void)flags;
	char p[PATH_MAX];
	return at(dirfd, path, p) ? -1 : chown(p, owner, group);
}

WEAK int linkat(int olddirfd, const char *oldpath, int newdirfd, const char *newpath, int flags) {
	(void)flags;
	char from[PATH_MAX], to[PATH_MAX];
	return at(olddirfd, oldpath, from) || at(newdirfd, newpath, to) ? -1 : link(from, to);
}

WEAK int symlinkat(const char *target, int newdirfd, const char *linkpath) {
	char p[PATH_MAX];
	return at(newdirfd, linkpath, p) ? -1 : symlink(target, p);
}

WEAK int mkfifoat(int dirfd, const char *path, mode_t mode) {
	char p[PATH_MAX];
	return at(dirfd, path, p) ? -1 : mkfifo(p, mode);
}
