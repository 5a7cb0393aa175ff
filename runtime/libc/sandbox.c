/* The calls a sandboxed process cannot make: augur runs the program with no
 * network and no other processes. Each fails the way the real call fails
 * when the system refuses it (an error return and errno), so a program's
 * own error handling runs and is analyzed; none stops the analysis.
 *
 *   sockets, name resolution   EACCES (socket), EBADF (calls on a socket
 *                              that cannot exist), EAI_AGAIN (getaddrinfo)
 *   fork, exec, system, popen  EAGAIN (fork), EACCES (exec, popen),
 *                              system(NULL) says there is no shell
 *   wait, kill                 ECHILD, EPERM (another process)
 *
 * The process's own identity is fixed so runs are reproducible: pid 4242,
 * parent 1, user and group 1000, four processors, 4 KiB pages. */
#define _GNU_SOURCE
#include <errno.h>
#include <netdb.h>
#include <signal.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <sys/socket.h>
#include <sys/sysinfo.h>
#include <sys/types.h>
#include <sys/wait.h>
#include <unistd.h>

#define WEAK __attribute__((weak))

static int fail(int err) {
	errno = err;
	return -1;
}

WEAK int socket(int domain, int type, int protocol) { return fail(EACCES); }
WEAK int socketpair(int domain, int type, int protocol, int sv[2]) { return fail(EACCES); }
WEAK int bind(int fd, const struct sockaddr *a, socklen_t n) { return fail(EBADF); }
WEAK int listen(int fd, int backlog) { return fail(EBADF); }
WEAK int accept(int fd, struct sockaddr *a, socklen_t *n) { return fail(EBADF); }
WEAK int accept4(int fd, struct sockaddr *a, socklen_t *n, int flags) { return fail(EBADF); }
WEAK int connect(int fd, const struct sockaddr *a, socklen_t n) { return fail(EBADF); }
WEAK int shutdown(int fd, int how) { return fail(EBADF); }
WEAK ssize_t send(int fd, const void *b, size_t n, int flags) { return fail(EBADF); }
WEAK ssize_t recv(int fd, void *b, size_t n, int flags) { return fail(EBADF); }
WEAK ssize_t sendto(int fd, const void *b, size_t n, int flags, const struct sockaddr *a, socklen_t l) {
	return fail(EBADF);
}
WEAK ssize_t recvfrom(int fd, void *b, size_t n, int flags, struct sockaddr *a, socklen_t *l) { return fail(EBADF); }
WEAK ssize_t sendmsg(int fd, const struct msghdr *m, int flags) { return fail(EBADF); }
WEAK ssize_t recvmsg(int fd, struct msghdr *m, int flags) { return fail(EBADF); }
WEAK int setsockopt(int fd, int level, int name, const void *v, socklen_t n) { return fail(EBADF); }
WEAK int getsockopt(int fd, int level, int name, void *v, socklen_t *n) { return fail(EBADF); }
WEAK int getsockname(int fd, struct sockaddr *a, socklen_t *n) { return fail(EBADF); }
WEAK int getpeername(int fd, struct sockaddr *a, socklen_t *n) { return fail(EBADF); }

WEAK int getaddrinfo(const char *node, const char *service, const struct addrinfo *hints, struct addrinfo **res) {
	*res = NULL;
	return EAI_AGAIN;
}
WEAK void freeaddrinfo(struct addrinfo *ai) {}
WEAK const char *gai_strerror(int code) {
	switch (code) {
	case EAI_AGAIN: return "Temporary failure in name resolution";
	case EAI_NONAME: return "Name or service not known";
	case EAI_FAIL: return "Non-recoverable failure in name resolution";
	case EAI_FAMILY: return "ai_family not supported";
	case EAI_MEMORY: return "Memory allocation failure";
	case EAI_SERVICE: return "Servname not supported for ai_socktype";
	case EAI_SYSTEM: return "System error";
	default: return "Unknown error";
	}
}
static __thread int hostErrno; /* h_errno is a macro over __h_errno_location */
WEAK int *__h_errno_location(void) { return &hostErrno; }
WEAK struct hostent *gethostbyname(const char *name) {
	hostErrno = TRY_AGAIN;
	return NULL;
}
WEAK int gethostname(char *name, size_t len) {
	const char host[] = "augur";
	if (len < sizeof host)
		return fail(ENAMETOOLONG);
	for (size_t i = 0; i < sizeof host; i++)
		name[i] = host[i];
	return 0;
}

WEAK pid_t fork(void) { return fail(EAGAIN); }
WEAK pid_t vfork(void) { return fail(EAGAIN); }
WEAK int execv(const char *path, char *const argv[]) { return fail(EACCES); }
WEAK int execvp(const char *file, char *const argv[]) { return fail(EACCES); }
WEAK int execve(const char *path, char *const argv[], char *const envp[]) { return fail(EACCES); }
WEAK int execvpe(const char *file, char *const argv[], char *const envp[]) { return fail(EACCES); }
WEAK int execl(const char *path, const char *arg, ...) { return fail(EACCES); }
WEAK int execlp(const char *file, const char *arg, ...) { return fail(EACCES); }
WEAK int execle(const char *path, const char *arg, ...) { return fail(EACCES); }
WEAK int system(const char *command) {
	if (command == NULL)
		return 0; /* no command processor */
	return fail(EACCES);
}
WEAK FILE *popen(const char *command, const char *mode) {
	errno = EACCES;
	return NULL;
}
WEAK int pclose(FILE *f) { return fail(ECHILD); }
WEAK pid_t wait(int *status) { return fail(ECHILD); }
WEAK pid_t waitpid(pid_t pid, int *status, int options) { return fail(ECHILD); }

WEAK pid_t getpid(void) { return 4242; }
WEAK pid_t getppid(void) { return 1; }
WEAK pid_t gettid(void) { return 4242; }
WEAK uid_t getuid(void) { return 1000; }
WEAK uid_t geteuid(void) { return 1000; }
WEAK gid_t getgid(void) { return 1000; }
WEAK gid_t getegid(void) { return 1000; }

/* The program runs as augur (1000:1000), not root: it may "change" to
 * the identity it has, and to no other (EPERM, as natively without
 * privileges). */
WEAK int setuid(uid_t uid) { return uid == 1000 ? 0 : fail(EPERM); }
WEAK int seteuid(uid_t uid) { return uid == 1000 ? 0 : fail(EPERM); }
WEAK int setgid(gid_t gid) { return gid == 1000 ? 0 : fail(EPERM); }
WEAK int setegid(gid_t gid) { return gid == 1000 ? 0 : fail(EPERM); }

/* Memory is never paged out in the interpreter: locking it succeeds. */
WEAK int mlockall(int flags) { return 0; }
WEAK int munlockall(void) { return 0; }
WEAK int mlock(const void *addr, size_t len) { return 0; }
WEAK int munlock(const void *addr, size_t len) { return 0; }

WEAK int kill(pid_t pid, int sig) {
	if (pid == getpid() || pid == 0)
		return raise(sig);
	return fail(EPERM);
}

WEAK long sysconf(int name) {
	switch (name) {
	case _SC_NPROCESSORS_ONLN:
	case _SC_NPROCESSORS_CONF: return 4;
	case _SC_PAGESIZE: return 4096;
	case _SC_CLK_TCK: return 100;
	case _SC_OPEN_MAX: return 1024;
	case _SC_LINE_MAX: return 2048;
	case _SC_ARG_MAX: return 2097152;
	default: return fail(EINVAL);
	}
}
WEAK long __sysconf(int name) { return sysconf(name); }
WEAK int get_nprocs(void) { return 4; }
WEAK int get_nprocs_conf(void) { return 4; }
WEAK int getpagesize(void) { return 4096; }
