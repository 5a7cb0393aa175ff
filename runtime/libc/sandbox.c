/* The calls a sandboxed process cannot make: augur runs the program with no
 * network and no other processes. Each fails the way the real call fails
 * when the system refuses it (an error return and errno), so a program's
 * own error handling runs and is analyzed; none stops the analysis.
 *
 *   name resolution            only the loopback's names resolve
 *                              (sockets themselves are augur's models)
 *   fork, exec, system, popen  EAGAIN (fork), EACCES (exec, popen),
 *                              system(NULL) says there is no shell
 *   wait, kill                 ECHILD, EPERM (another process)
 *
 * The process's own identity is fixed so runs are reproducible: pid 4242,
 * parent 1, user and group 1000, four processors, 4 KiB pages. */
#define _GNU_SOURCE
#include <errno.h>
#include <arpa/inet.h>
#include <netdb.h>
#include <netinet/in.h>
#include <pthread.h>
#include <signal.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/socket.h>
#include <sys/sysinfo.h>
#include <sys/types.h>
#include <sys/utsname.h>
#include <sys/wait.h>
#include <unistd.h>

#define WEAK __attribute__((weak))

static int fail(int err) {
	errno = err;
	return -1;
}

/* Sockets, pipes, poll, select and epoll are augur's models (the
 * loopback network of analyzer/exec/libc/net.go). Name resolution is here: the
 * loopback's names resolve, no other host exists. */

static int isLoopbackName(const char *n) {
	static const char *const names[] = {"localhost", "localhost.localdomain", "ip6-localhost", "ip6-loopback",
	                                    "augur", "127.0.0.1", "::1", "0.0.0.0", "::"};
	for (size_t i = 0; i < sizeof names / sizeof names[0]; i++) {
		const char *a = names[i], *b = n;
		while (*a && *a == *b)
			a++, b++;
		if (*a == 0 && *b == 0)
			return 1;
	}
	return n[0] == '1' && n[1] == '2' && n[2] == '7' && n[3] == '.';
}

/* The port of a numeric service, or -1. */
static int servicePort(const char *s) {
	if (s == NULL)
		return 0;
	if (*s == 0)
		return -1;
	long v = 0;
	for (; *s; s++) {
		if (*s < '0' || *s > '9')
			return -1;
		v = v * 10 + (*s - '0');
		if (v > 65535)
			return -1;
	}
	return (int)v;
}

static struct addrinfo *newAddrinfo(int family, int socktype, int port, int passive) {
	struct addrinfo *ai = calloc(1, sizeof *ai + sizeof(struct sockaddr_in6));
	if (ai == NULL)
		return NULL;
	ai->ai_family = family;
	ai->ai_socktype = socktype;
	ai->ai_protocol = socktype == SOCK_STREAM ? IPPROTO_TCP : IPPROTO_UDP;
	ai->ai_addr = (struct sockaddr *)(ai + 1);
	if (family == AF_INET6) {
		struct sockaddr_in6 *a = (struct sockaddr_in6 *)ai->ai_addr;
		a->sin6_family = AF_INET6;
		a->sin6_port = htons((uint16_t)port);
		if (!passive)
			a->sin6_addr.s6_addr[15] = 1;
		ai->ai_addrlen = sizeof *a;
	} else {
		struct sockaddr_in *a = (struct sockaddr_in *)ai->ai_addr;
		a->sin_family = AF_INET;
		a->sin_port = htons((uint16_t)port);
		a->sin_addr.s_addr = passive ? 0 : htonl(0x7f000001);
		ai->ai_addrlen = sizeof *a;
	}
	return ai;
}

/* getaddrinfo resolves the loopback's names (and a null node: the
 * loopback, or any address with AI_PASSIVE) with a numeric service, one
 * result per socket type asked (stream and datagram when none is);
 * another host is EAI_NONAME, a named service EAI_SERVICE. */
WEAK int getaddrinfo(const char *node, const char *service, const struct addrinfo *hints, struct addrinfo **res) {
	*res = NULL;
	int family = hints ? hints->ai_family : AF_UNSPEC;
	int socktype = hints ? hints->ai_socktype : 0;
	int passive = hints && (hints->ai_flags & AI_PASSIVE) && node == NULL;
	if (node == NULL && service == NULL)
		return EAI_NONAME;
	if (node != NULL && !isLoopbackName(node))
		return EAI_NONAME;
	if (family != AF_UNSPEC && family != AF_INET && family != AF_INET6)
		return EAI_FAMILY;
	int port = servicePort(service);
	if (port < 0)
		return EAI_SERVICE;
	if (family == AF_UNSPEC)
		family = node != NULL && node[0] == ':' ? AF_INET6 : AF_INET;
	int types[2] = {socktype, 0};
	if (socktype == 0)
		types[0] = SOCK_STREAM, types[1] = SOCK_DGRAM;
	struct addrinfo **tail = res;
	for (int i = 0; i < 2 && types[i] != 0; i++) {
		struct addrinfo *ai = newAddrinfo(family, types[i], port, passive);
		if (ai == NULL) {
			freeaddrinfo(*res);
			*res = NULL;
			return EAI_MEMORY;
		}
		*tail = ai;
		tail = &ai->ai_next;
	}
	return 0;
}
WEAK void freeaddrinfo(struct addrinfo *ai) {
	while (ai != NULL) {
		struct addrinfo *next = ai->ai_next;
		free(ai);
		ai = next;
	}
}
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
	hostErrno = HOST_NOT_FOUND;
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

/* uname names the sandbox: a Linux machine called augur. */
WEAK int uname(struct utsname *u) {
	static const struct utsname sandbox = {"Linux", "augur", "5.15.0-augur", "#1 SMP augur", "x86_64", "(none)"};
	*u = sandbox;
	return 0;
}

/* getnameinfo is getaddrinfo's inverse over the same names: the
 * loopback's address is "localhost" (unless NI_NUMERICHOST), any other
 * is written in numbers (NI_NAMEREQD: EAI_NONAME), and services are
 * numbers. */
WEAK int getnameinfo(const struct sockaddr *sa, socklen_t salen, char *host, socklen_t hostlen, char *serv,
		     socklen_t servlen, int flags) {
	const void *addr;
	int port, loopback;
	if (sa->sa_family == AF_INET && salen >= sizeof(struct sockaddr_in)) {
		const struct sockaddr_in *in = (const struct sockaddr_in *)sa;
		port = ntohs(in->sin_port);
		addr = &in->sin_addr;
		loopback = (ntohl(in->sin_addr.s_addr) >> 24) == 127;
	} else if (sa->sa_family == AF_INET6 && salen >= sizeof(struct sockaddr_in6)) {
		const struct sockaddr_in6 *in6 = (const struct sockaddr_in6 *)sa;
		port = ntohs(in6->sin6_port);
		addr = &in6->sin6_addr;
		loopback = IN6_IS_ADDR_LOOPBACK(&in6->sin6_addr);
	} else {
		return EAI_FAMILY;
	}
	if (host && hostlen) {
		if (loopback && !(flags & NI_NUMERICHOST)) {
			if (hostlen < sizeof "localhost")
				return EAI_OVERFLOW;
			strcpy(host, "localhost");
		} else if (flags & NI_NAMEREQD) {
			return EAI_NONAME;
		} else if (!inet_ntop(sa->sa_family, addr, host, hostlen)) {
			return EAI_OVERFLOW;
		}
	}
	if (serv && servlen && snprintf(serv, servlen, "%d", port) >= (int)servlen)
		return EAI_OVERFLOW;
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
/* The main thread's id is the process's; each other thread's follows. */
WEAK pid_t gettid(void) { return 4242 + (pid_t)(pthread_self() - 1); }
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
