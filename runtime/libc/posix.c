/* Assorted POSIX and GNU functions that are plain computation over program
 * memory (strings, paths, the environment) or that the sandbox answers
 * without a system (terminals, the system log, dynamic loading,
 * directories). Functions found missing most often in a corpus of real
 * programs (docs/libc.md) come first. */
#define _GNU_SOURCE
#include <ctype.h>
#include <errno.h>
#include <pthread.h>
#include <signal.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <poll.h>
#include <sys/eventfd.h>
#include <sys/socket.h>
#include <sys/uio.h>
#include <termios.h>
#include <fcntl.h>
#include <grp.h>
#include <pwd.h>
#include <sched.h>
#include <sys/resource.h>
#include <sys/time.h>
#include <time.h>
#include <unistd.h>
#include <utime.h>

#define WEAK __attribute__((weak))

extern char **environ;

WEAK char *strsep(char **sp, const char *delim) {
	char *s = *sp;
	if (!s)
		return NULL;
	char *end = s + strcspn(s, delim);
	if (*end) {
		*end = '\0';
		*sp = end + 1;
	} else {
		*sp = NULL;
	}
	return s;
}

WEAK char *strcasestr(const char *hay, const char *needle) {
	size_t n = strlen(needle);
	for (; *hay; hay++)
		if (strncasecmp(hay, needle, n) == 0)
			return (char *)hay;
	return n == 0 ? (char *)hay : NULL;
}

WEAK char *strchrnul(const char *s, int c) {
	while (*s && *s != (char)c)
		s++;
	return (char *)s;
}

WEAK void *memrchr(const void *s, int c, size_t n) {
	const unsigned char *p = s;
	while (n--)
		if (p[n] == (unsigned char)c)
			return (void *)(p + n);
	return NULL;
}

WEAK void *mempcpy(void *dst, const void *src, size_t n) { return (char *)memcpy(dst, src, n) + n; }
/* memccpy copies up to and including the first c, and returns the byte
 * after it in dst, or NULL when n bytes held no c. */
WEAK void *memccpy(void *dst, const void *src, int c, size_t n) {
	unsigned char *d = dst;
	const unsigned char *p = src;
	for (size_t i = 0; i < n; i++)
		if ((d[i] = p[i]) == (unsigned char)c)
			return d + i + 1;
	return NULL;
}

/* POSIX basename and dirname may modify their argument; GNU basename
 * (string.h with _GNU_SOURCE) does not and keeps a trailing slash's empty
 * name. */
WEAK char *__xpg_basename(char *path) {
	static char dot[] = ".";
	if (!path || !*path)
		return dot;
	size_t n = strlen(path);
	while (n > 1 && path[n - 1] == '/')
		path[--n] = '\0';
	char *slash = strrchr(path, '/');
	return slash && slash[1] ? slash + 1 : path;
}

WEAK char *basename(const char *path) {
	char *slash = strrchr(path, '/');
	return (char *)(slash ? slash + 1 : path);
}

WEAK char *dirname(char *path) {
	static char dot[] = ".";
	if (!path || !*path)
		return dot;
	size_t n = strlen(path);
	while (n > 1 && path[n - 1] == '/')
		n--;
	while (n > 0 && path[n - 1] != '/')
		n--;
	if (n == 0)
		return dot;
	while (n > 1 && path[n - 1] == '/')
		n--;
	path[n] = '\0';
	return path;
}

/* The environment: setenv and friends replace environ with a copy the
 * first time, so the VM's initial array is never written. */
static pthread_mutex_t env_lock = PTHREAD_MUTEX_INITIALIZER;
static char **own_env;

static int env_index(const char *name, size_t n) {
	for (int i = 0; environ && environ[i]; i++)
		if (strncmp(environ[i], name, n) == 0 && environ[i][n] == '=')
			return i;
	return -1;
}

static int env_put(char *entry, size_t n, int overwrite) {
	int i = env_index(entry, n);
	if (i >= 0) {
		if (overwrite)
			environ[i] = entry;
		return 0;
	}
	int count = 0;
	while (environ && environ[count])
		count++;
	char **fresh = malloc((size_t)(count + 2) * sizeof *fresh);
	if (!fresh) {
		errno = ENOMEM;
		return -1;
	}
	for (int k = 0; k < count; k++)
		fresh[k] = environ[k];
	fresh[count] = entry;
	fresh[count + 1] = NULL;
	free(own_env);
	environ = own_env = fresh;
	return 0;
}

WEAK int setenv(const char *name, const char *value, int overwrite) {
	size_t n = strlen(name);
	if (n == 0 || strchr(name, '=')) {
		errno = EINVAL;
		return -1;
	}
	char *entry = malloc(n + strlen(value) + 2);
	if (!entry) {
		errno = ENOMEM;
		return -1;
	}
	sprintf(entry, "%s=%s", name, value);
	pthread_mutex_lock(&env_lock);
	int r = env_put(entry, n, overwrite);
	pthread_mutex_unlock(&env_lock);
	return r;
}

WEAK int putenv(char *entry) {
	char *eq = strchr(entry, '=');
	if (!eq)
		return unsetenv(entry);
	pthread_mutex_lock(&env_lock);
	int r = env_put(entry, (size_t)(eq - entry), 1);
	pthread_mutex_unlock(&env_lock);
	return r;
}

WEAK int unsetenv(const char *name) {
	size_t n = strlen(name);
	if (n == 0 || strchr(name, '=')) {
		errno = EINVAL;
		return -1;
	}
	pthread_mutex_lock(&env_lock);
	int i;
	while ((i = env_index(name, n)) >= 0)
		for (; environ[i]; i++)
			environ[i] = environ[i + 1];
	pthread_mutex_unlock(&env_lock);
	return 0;
}

WEAK int clearenv(void) {
	static char *empty[1];
	environ = empty;
	return 0;
}

WEAK char *secure_getenv(const char *name) { return getenv(name); }

/* strerror_r: the GNU form returns the message; the POSIX form copies it. */
WEAK char *strerror_r(int e, char *buf, size_t n) {
	(void)buf;
	(void)n;
	return strerror(e);
}
WEAK int __xpg_strerror_r(int e, char *buf, size_t n) {
	const char *msg = strerror(e);
	if (strlen(msg) >= n)
		return ERANGE;
	strcpy(buf, msg);
	return 0;
}

/* No terminal: standard streams are pipes, as in a test harness. */
WEAK int isatty(int fd) {
	errno = ENOTTY;
	return 0;
}
WEAK char *ttyname(int fd) {
	errno = ENOTTY;
	return NULL;
}


/* Directories: the working directory (getcwd, chdir), mkdir, rmdir and
 * the directory streams (opendir, readdir, ...) are modeled in
 * analyzer/exec/vm (vfs_names.go, vfs_dirs.go). */
/* chmod, fchmod and umask are modeled in analyzer/exec/libc (vfs_modes.go). */

/* The system log goes nowhere: the sandbox has no syslog daemon. */
WEAK void openlog(const char *ident, int option, int facility) {}
WEAK void syslog(int priority, const char *format, ...) {}
WEAK void vsyslog(int priority, const char *format, va_list ap) {}
WEAK void closelog(void) {}

/* No dynamic loading in the sandbox. */
static const char *dl_error;
WEAK void *dlopen(const char *file, int mode) {
	dl_error = "dynamic loading is not available in augur's sandbox";
	return NULL;
}
WEAK void *dlsym(void *handle, const char *name) {
	dl_error = "dynamic loading is not available in augur's sandbox";
	return NULL;
}
WEAK int dlclose(void *handle) { return 0; }
WEAK char *dlerror(void) {
	const char *e = dl_error;
	dl_error = NULL;
	return (char *)e;
}

/* pthread_kill sends to the process, as raise does: augur keeps one
 * signal mask for all threads (signal.c). */
WEAK int pthread_kill(pthread_t thread, int sig) {
	if (sig == 0)
		return 0;
	return raise(sig) == 0 ? 0 : errno;
}

WEAK void *reallocarray(void *p, size_t n, size_t size) {
	if (size && n > (size_t)-1 / size) {
		errno = ENOMEM;
		return NULL;
	}
	return realloc(p, n * size);
}

/* Gather and scatter I/O, one buffer at a time. Past the first buffer,
 * readv reads only what is there already (a pipe or a socket may have no
 * more yet: readv returns what it has, it does not wait for more). */
WEAK ssize_t writev(int fd, const struct iovec *iov, int n) {
	ssize_t total = 0;
	for (int i = 0; i < n; i++) {
		ssize_t w = write(fd, iov[i].iov_base, iov[i].iov_len);
		if (w < 0)
			return total ? total : w;
		total += w;
		if ((size_t)w < iov[i].iov_len)
			break;
	}
	return total;
}
WEAK ssize_t readv(int fd, const struct iovec *iov, int n) {
	ssize_t total = 0;
	for (int i = 0; i < n; i++) {
		if (i > 0) {
			struct pollfd p = {.fd = fd, .events = POLLIN};
			if (poll(&p, 1, 0) != 1 || !(p.revents & POLLIN))
				break;
		}
		ssize_t r = read(fd, iov[i].iov_base, iov[i].iov_len);
		if (r < 0)
			return total ? total : r;
		total += r;
		if ((size_t)r < iov[i].iov_len || r == 0)
			break;
	}
	return total;
}

/* posix_fallocate and fallocate make a regular file at least offset +
 * len bytes long (the virtual file system has no blocks to reserve);
 * fallocate's modes other than FALLOC_FL_KEEP_SIZE (punching or
 * collapsing holes) are EOPNOTSUPP. */
WEAK int posix_fallocate(int fd, off_t offset, off_t len) {
	struct stat st;
	if (offset < 0 || len <= 0)
		return EINVAL;
	if (fstat(fd, &st) != 0)
		return errno;
	if (!S_ISREG(st.st_mode))
		return S_ISFIFO(st.st_mode) ? ESPIPE : ENODEV;
	if (st.st_size < offset + len && ftruncate(fd, offset + len) != 0)
		return errno;
	return 0;
}
WEAK int fallocate(int fd, int mode, off_t offset, off_t len) {
	if (mode & ~FALLOC_FL_KEEP_SIZE) {
		errno = EOPNOTSUPP;
		return -1;
	}
	if (mode & FALLOC_FL_KEEP_SIZE) {
		struct stat st;
		return fstat(fd, &st);
	}
	int e = posix_fallocate(fd, offset, len);
	if (e) {
		errno = e;
		return -1;
	}
	return 0;
}

/* sendmsg and recvmsg over sendto and recvfrom: the buffers gathered into
 * one (a datagram stays one datagram) and scattered back. No ancillary
 * data passes (msg_controllen comes back 0). */
static size_t iov_total(const struct msghdr *m) {
	size_t n = 0;
	for (size_t i = 0; i < m->msg_iovlen; i++)
		n += m->msg_iov[i].iov_len;
	return n;
}

WEAK ssize_t sendmsg(int fd, const struct msghdr *m, int flags) {
	size_t n = iov_total(m);
	char *buf = malloc(n ? n : 1);
	if (buf == NULL) {
		errno = ENOMEM;
		return -1;
	}
	for (size_t i = 0, at = 0; i < m->msg_iovlen; at += m->msg_iov[i].iov_len, i++)
		memcpy(buf + at, m->msg_iov[i].iov_base, m->msg_iov[i].iov_len);
	ssize_t r = sendto(fd, buf, n, flags, (const struct sockaddr *)m->msg_name, m->msg_namelen);
	free(buf);
	return r;
}

WEAK ssize_t recvmsg(int fd, struct msghdr *m, int flags) {
	size_t n = iov_total(m);
	char *buf = malloc(n ? n : 1);
	if (buf == NULL) {
		errno = ENOMEM;
		return -1;
	}
	socklen_t namelen = m->msg_namelen;
	ssize_t r = recvfrom(fd, buf, n, flags, (struct sockaddr *)m->msg_name, m->msg_name ? &namelen : NULL);
	if (r >= 0) {
		for (size_t i = 0, at = 0; i < m->msg_iovlen && at < (size_t)r; i++) {
			size_t k = m->msg_iov[i].iov_len < (size_t)r - at ? m->msg_iov[i].iov_len : (size_t)r - at;
			memcpy(m->msg_iov[i].iov_base, buf + at, k);
			at += k;
		}
		m->msg_namelen = m->msg_name ? namelen : 0;
		m->msg_controllen = 0;
		m->msg_flags = 0;
	}
	free(buf);
	return r;
}

/* glibc's eventfd helpers: a read or a write of the 8-byte counter
 * (eventfd itself is augur's model). */
WEAK int eventfd_read(int fd, eventfd_t *value) { return read(fd, value, sizeof *value) == sizeof *value ? 0 : -1; }
WEAK int eventfd_write(int fd, eventfd_t value) { return write(fd, &value, sizeof value) == sizeof value ? 0 : -1; }

/* Durability and ownership mean nothing in the virtual file system. */
WEAK int fsync(int fd) { return 0; }
WEAK int fdatasync(int fd) { return 0; }
WEAK void sync(void) {}
WEAK int chown(const char *path, uid_t u, gid_t g) { return access(path, F_OK); }
WEAK int fchown(int fd, uid_t u, gid_t g) { return 0; }

/* realpath of an absolute or relative name (in the working directory):
 * ".", ".." and symbolic links resolved as the kernel walks a name (a
 * link's text replaces it, read in the link's directory; ".." after it
 * goes up from where it led), at most 40 links (ELOOP); the file must
 * exist. */
WEAK char *realpath(const char *path, char *out) {
	char buf[4096], rest[4096], link[4096];
	size_t n = 1;
	int hops = 0;
	if (!path) {
		errno = EINVAL;
		return NULL;
	}
	buf[0] = '/';
	if (path[0] != '/') {
		if (!getcwd(buf, sizeof buf))
			return NULL;
		n = strlen(buf);
	}
	if (strlen(path) >= sizeof rest) {
		errno = ENAMETOOLONG;
		return NULL;
	}
	strcpy(rest, path);
	for (char *p = rest; *p;) {
		while (*p == '/')
			p++;
		char *e = strchrnul(p, '/');
		size_t len = (size_t)(e - p);
		if (len == 0)
			break;
		if (len == 1 && p[0] == '.') {
			p = e;
			continue;
		}
		if (len == 2 && p[0] == '.' && p[1] == '.') {
			/* drop the last component and the slash before it */
			while (n > 1 && buf[n - 1] != '/')
				n--;
			if (n > 1)
				n--;
			p = e;
			continue;
		}
		size_t was = n;
		if (n + len + 2 > sizeof buf) {
			errno = ENAMETOOLONG;
			return NULL;
		}
		if (buf[n - 1] != '/')
			buf[n++] = '/';
		memcpy(buf + n, p, len);
		n += len;
		buf[n] = '\0';
		ssize_t k = readlink(buf, link, sizeof link - 1);
		if (k < 0) {
			p = e;
			continue;
		}
		if (++hops > 40) {
			errno = ELOOP;
			return NULL;
		}
		/* walk the link's text, then what followed the link */
		size_t tail = strlen(e);
		if ((size_t)k + tail + 1 > sizeof rest) {
			errno = ENAMETOOLONG;
			return NULL;
		}
		memmove(rest + k, e, tail + 1);
		memcpy(rest, link, (size_t)k);
		p = rest;
		n = link[0] == '/' ? 1 : was;
	}
	if (n > 1 && buf[n - 1] == '/')
		n--;
	buf[n] = '\0';
	if (access(buf, F_OK) != 0)
		return NULL;
	if (!out)
		return strdup(buf);
	return strcpy(out, buf);
}

/* Terminals: the streams are not terminals. */
WEAK int tcgetattr(int fd, struct termios *t) {
	errno = ENOTTY;
	return -1;
}
WEAK int tcsetattr(int fd, int act, const struct termios *t) {
	errno = ENOTTY;
	return -1;
}
/* daemon() forks, which the sandbox refuses. */
WEAK int daemon(int nochdir, int noclose) {
	errno = EAGAIN;
	return -1;
}

WEAK sighandler_t __sysv_signal(int sig, sighandler_t h) { return signal(sig, h); }
WEAK sighandler_t sysv_signal(int sig, sighandler_t h) { return signal(sig, h); }

/* Formatted allocation. */
WEAK int vasprintf(char **out, const char *fmt, va_list ap) {
	va_list copy;
	va_copy(copy, ap);
	int n = vsnprintf(NULL, 0, fmt, copy);
	va_end(copy);
	if (n < 0 || !(*out = malloc((size_t)n + 1)))
		return -1;
	return vsnprintf(*out, (size_t)n + 1, fmt, ap);
}
WEAK int asprintf(char **out, const char *fmt, ...) {
	va_list ap;
	va_start(ap, fmt);
	int n = vasprintf(out, fmt, ap);
	va_end(ap);
	return n;
}

/* frexp and ldexp by the exponent bits of IEEE doubles. */
WEAK double ldexp(double x, int e) {
	if (x == 0 || x != x || x - x != 0)
		return x;
	while (e > 1000) {
		x *= 0x1p1000;
		e -= 1000;
	}
	while (e < -1000) {
		x *= 0x1p-1000;
		e += 1000;
	}
	union {
		double d;
		unsigned long long u;
	} scale = {.u = (unsigned long long)(e + 1023) << 52};
	if (e < -1022) /* a subnormal scale: two steps */
		return x * 0x1p-1000 * ldexp(1.0, e + 1000);
	return x * scale.d;
}
WEAK double frexp(double x, int *e) {
	*e = 0;
	if (x == 0 || x != x || x - x != 0)
		return x;
	union {
		double d;
		unsigned long long u;
	} v = {.d = x};
	int exp = (int)(v.u >> 52 & 0x7ff);
	if (exp == 0) { /* subnormal: normalize first */
		v.d = x * 0x1p64;
		exp = (int)(v.u >> 52 & 0x7ff) - 64;
	}
	*e = exp - 1022;
	v.u = (v.u & ~(0x7ffULL << 52)) | (0x3feULL << 52);
	return v.d;
}

/* qsort_r: qsort with a context argument (insertion into a merge sort
 * would need the runtime's msort; a simple stable insertion sort is
 * enough for the sizes programs pass it and keeps equal keys in order,
 * like glibc's merge sort). */
WEAK void qsort_r(void *base, size_t n, size_t size, int (*cmp)(const void *, const void *, void *), void *arg) {
	char *b = base, tmp[256];
	char *t = size <= sizeof tmp ? tmp : malloc(size);
	for (size_t i = 1; i < n; i++) {
		size_t j = i;
		memcpy(t, b + i * size, size);
		while (j > 0 && cmp(b + (j - 1) * size, t, arg) > 0) {
			memcpy(b + j * size, b + (j - 1) * size, size);
			j--;
		}
		memcpy(b + j * size, t, size);
	}
	if (t != tmp)
		free(t);
}

/* The one user: augur (uid and gid 1000), home /. */
static struct passwd augur_user = {"augur", "x", 1000, 1000, "augur", "/", "/bin/sh"};
WEAK struct passwd *getpwuid(uid_t uid) { return uid == 1000 ? &augur_user : NULL; }
WEAK struct passwd *getpwnam(const char *name) { return strcmp(name, "augur") == 0 ? &augur_user : NULL; }
WEAK struct group *getgrnam(const char *name) { return NULL; }
WEAK struct group *getgrgid(gid_t gid) { return NULL; }

/* Resource limits: the stack is 8 MiB, 1024 descriptors, the rest unlimited. */
WEAK int getrlimit(__rlimit_resource_t res, struct rlimit *r) {
	r->rlim_cur = r->rlim_max = RLIM_INFINITY;
	if (res == RLIMIT_STACK)
		r->rlim_cur = 8 << 20;
	if (res == RLIMIT_NOFILE)
		r->rlim_cur = r->rlim_max = 1024;
	return 0;
}
WEAK int setrlimit(__rlimit_resource_t res, const struct rlimit *r) { return 0; }

/* Resource usage: the user CPU time is clock()'s (the virtual clock, an
 * input of the analysis like every clock), the rest zero but a resident
 * size of 4 MiB. Children: none ran. */
WEAK int getrusage(int who, struct rusage *u) {
	memset(u, 0, sizeof *u);
	if (who == RUSAGE_CHILDREN)
		return 0;
	if (who != RUSAGE_SELF && who != RUSAGE_THREAD) {
		errno = EINVAL;
		return -1;
	}
	clock_t c = clock();
	u->ru_utime.tv_sec = c / CLOCKS_PER_SEC;
	u->ru_utime.tv_usec = c % CLOCKS_PER_SEC;
	u->ru_maxrss = 4096;
	return 0;
}

/* Files have no times in the virtual file system: setting them succeeds
 * on a file that exists. */
WEAK int utime(const char *path, const struct utimbuf *t) { return access(path, F_OK); }
WEAK int utimes(const char *path, const struct timeval t[2]) { return access(path, F_OK); }
WEAK int utimensat(int dirfd, const char *path, const struct timespec t[2], int flags) {
	int fd = openat(dirfd, path, O_RDONLY);
	if (fd < 0)
		return -1;
	close(fd);
	return 0;
}
WEAK int futimens(int fd, const struct timespec t[2]) {
	struct stat st;
	return fstat(fd, &st);
}

/* make_temp replaces the six Xs of tmpl that come before suffix bytes with
 * a name make accepts (one not yet in the virtual file system), trying
 * names in turn: mkstemp, mkstemps and mkdtemp. */
static int make_temp(char *tmpl, size_t suffix, int (*make)(const char *)) {
	size_t n = strlen(tmpl);
	if (n < 6 + suffix || strncmp(tmpl + n - suffix - 6, "XXXXXX", 6) != 0) {
		errno = EINVAL;
		return -1;
	}
	static int counter;
	char *x = tmpl + n - suffix - 6;
	for (int tries = 0; tries < 1000; tries++) {
		char after = x[6]; /* snprintf's NUL lands on the suffix */
		snprintf(x, 7, "%06d", ++counter % 1000000);
		x[6] = after;
		int r = make(tmpl);
		if (r >= 0 || errno != EEXIST)
			return r;
	}
	errno = EEXIST;
	return -1;
}

static int make_file(const char *path) { return open(path, O_RDWR | O_CREAT | O_EXCL, 0600); }
static int make_dir(const char *path) { return mkdir(path, 0700); }

WEAK int mkstemp(char *tmpl) { return make_temp(tmpl, 0, make_file); }
WEAK int mkstemps(char *tmpl, int suffix) {
	if (suffix < 0) {
		errno = EINVAL;
		return -1;
	}
	return make_temp(tmpl, suffix, make_file);
}
WEAK char *mkdtemp(char *tmpl) { return make_temp(tmpl, 0, make_dir) < 0 ? NULL : tmpl; }

WEAK size_t __fread_chk(void *p, size_t plen, size_t size, size_t n, FILE *f) { return fread(p, size, n, f); }
/* prctl names the calling thread (PR_SET_NAME truncates to 15 bytes where
 * pthread_setname_np refuses) and reads its name back (PR_GET_NAME). */
WEAK int prctl(int option, ...) {
	va_list ap;
	va_start(ap, option);
	char *arg = va_arg(ap, char *);
	va_end(ap);
	if (option == 15 /* PR_SET_NAME */) {
		char name[16];
		strncpy(name, arg, 15);
		name[15] = 0;
		pthread_setname_np(pthread_self(), name);
		return 0;
	}
	if (option == 16 /* PR_GET_NAME */)
		return pthread_getname_np(pthread_self(), arg, 16) ? -1 : 0;
	errno = EINVAL;
	return -1;
}
WEAK pid_t setsid(void) {
	errno = EPERM;
	return -1;
}
/* Affinity: the sandbox's four processors, all in every mask; setting one
 * succeeds (the interpreter runs every thread alike). */
WEAK int pthread_setaffinity_np(pthread_t t, size_t n, const cpu_set_t *set) { return 0; }
WEAK int pthread_getaffinity_np(pthread_t t, size_t n, cpu_set_t *set) {
	memset(set, 0, n);
	for (int i = 0; i < 4 && (size_t)i < 8 * n; i++)
		CPU_SET_S(i, n, set);
	return 0;
}
WEAK int sched_getaffinity(pid_t pid, size_t n, cpu_set_t *set) {
	if (n < sizeof(unsigned long)) {
		errno = EINVAL;
		return -1;
	}
	return pthread_getaffinity_np(pthread_self(), n, set);
}
WEAK int sched_setaffinity(pid_t pid, size_t n, const cpu_set_t *set) { return 0; }
WEAK int sched_getcpu(void) { return 0; }
/* CPU_COUNT's function: the processors in a mask of n bytes. */
WEAK int __sched_cpucount(size_t n, const cpu_set_t *set) {
	int count = 0;
	for (size_t i = 0; i < n; i++)
		count += __builtin_popcount(((const unsigned char *)set)[i]);
	return count;
}

/* getline and getdelim read a stream up to a delimiter into a buffer they
 * grow with realloc, as glibc's do. */
WEAK ssize_t getdelim(char **line, size_t *cap, int delim, FILE *f) {
	if (!line || !cap || !f) {
		errno = EINVAL;
		return -1;
	}
	size_t n = 0;
	for (;;) {
		int c = getc(f);
		if (c == EOF && n == 0)
			return -1;
		if (n + 2 > *cap || !*line) {
			size_t grown = *cap < 120 ? 120 : 2 * *cap;
			char *p = realloc(*line, grown);
			if (!p) {
				errno = ENOMEM;
				return -1;
			}
			*line = p;
			*cap = grown;
		}
		if (c == EOF)
			break;
		(*line)[n++] = (char)c;
		if (c == delim)
			break;
	}
	(*line)[n] = 0;
	return (ssize_t)n;
}
WEAK ssize_t getline(char **line, size_t *cap, FILE *f) { return getdelim(line, cap, '\n', f); }

/* tmpfile is an anonymous file of the virtual file system: created under
 * /tmp, unlinked, and opened for reading and writing. */
WEAK FILE *tmpfile(void) {
	char name[] = "/tmp/tmpfileXXXXXX";
	int fd = mkstemp(name);
	if (fd < 0)
		return NULL;
	unlink(name);
	FILE *f = fdopen(fd, "w+");
	if (!f)
		close(fd);
	return f;
}
WEAK FILE *tmpfile64(void) { return tmpfile(); }

/* lockf is glibc's, over fcntl's record locks on the bytes from the file
 * position; F_TEST reports another process's lock (augur's processes all
 * have one pid, so it does not compare l_pid with getpid as glibc does). */
WEAK int lockf(int fd, int cmd, off_t len) {
	struct flock fl = {.l_whence = SEEK_CUR, .l_start = 0, .l_len = len};
	switch (cmd) {
	case F_TEST:
		fl.l_type = F_RDLCK;
		if (fcntl(fd, F_GETLK, &fl) < 0)
			return -1;
		if (fl.l_type == F_UNLCK)
			return 0;
		errno = EACCES;
		return -1;
	case F_ULOCK:
		fl.l_type = F_UNLCK;
		return fcntl(fd, F_SETLK, &fl);
	case F_LOCK:
		fl.l_type = F_WRLCK;
		return fcntl(fd, F_SETLKW, &fl);
	case F_TLOCK:
		fl.l_type = F_WRLCK;
		return fcntl(fd, F_SETLK, &fl);
	}
	errno = EINVAL;
	return -1;
}
