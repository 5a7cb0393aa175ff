/* In augur's sandbox the network is a loopback inside the execution (no
 * other host exists, nobody listens on port 80 there), and process calls
 * fail the way the real calls fail when the system refuses them; the
 * program's own error handling runs: no analysis stop. The expected
 * output is augur's (a native run has a network and may fork), checked by
 * TestSandboxedCalls.
 *
 * expect-stdout:
 * socket: a descriptor
 * connect: -1 Connection refused
 * connect elsewhere: -1 Network is unreachable
 * getaddrinfo: Name or service not known
 * gethostbyname: null, h_errno 1
 * fork: -1 Resource temporarily unavailable
 * execvp: -1 Permission denied
 * system(NULL): 0, system(cmd): -1
 * popen: null Permission denied
 * waitpid: -1 No child processes
 * kill(1): -1 Operation not permitted
 * pid 4242 ppid 1 uid 1000 cpus 4 host augur
 */
#include <errno.h>
#include <netdb.h>
#include <netinet/in.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/socket.h>
#include <sys/wait.h>
#include <unistd.h>

int main(void) {
	int fd = socket(AF_INET, SOCK_STREAM, 0);
	printf("socket: %s\n", fd >= 0 ? "a descriptor" : strerror(errno));
	struct sockaddr_in addr = {.sin_family = AF_INET, .sin_port = htons(80)};
	int c = connect(fd, (struct sockaddr *)&addr, sizeof addr);
	printf("connect: %d %s\n", c, strerror(errno));
	addr.sin_addr.s_addr = htonl(0x5db8d822); /* a host on the Internet */
	c = connect(fd, (struct sockaddr *)&addr, sizeof addr);
	printf("connect elsewhere: %d %s\n", c, strerror(errno));
	struct addrinfo *res;
	int g = getaddrinfo("example.com", "80", NULL, &res);
	printf("getaddrinfo: %s\n", gai_strerror(g));
	struct hostent *h = gethostbyname("example.com");
	printf("gethostbyname: %s, h_errno %d\n", h ? "found" : "null", h_errno);
	pid_t p = fork();
	printf("fork: %d %s\n", p, strerror(errno));
	char *argv[] = {"ls", NULL};
	int e = execvp("ls", argv);
	printf("execvp: %d %s\n", e, strerror(errno));
	printf("system(NULL): %d, system(cmd): %d\n", system(NULL), system("ls"));
	FILE *f = popen("ls", "r");
	printf("popen: %s %s\n", f ? "stream" : "null", strerror(errno));
	int st;
	printf("waitpid: %d %s\n", waitpid(-1, &st, 0), strerror(errno));
	printf("kill(1): %d %s\n", kill(1, SIGTERM), strerror(errno));
	char host[64];
	gethostname(host, sizeof host);
	printf("pid %d ppid %d uid %d cpus %ld host %s\n", getpid(), getppid(), getuid(), sysconf(_SC_NPROCESSORS_ONLN), host);
	return 0;
}
