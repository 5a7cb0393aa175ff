/* The runtime's text utilities against glibc's: shell patterns (fnmatch,
 * with FNM_PATHNAME, FNM_PERIOD, FNM_NOESCAPE, FNM_CASEFOLD and
 * FNM_LEADING_DIR), time parsing (strptime, its common conversions and a
 * failed parse), getnameinfo of the loopback and of another address, and
 * the parts of uname that do not name the host. Prints the same natively
 * and under augur. */
#define _GNU_SOURCE
#include <arpa/inet.h>
#include <fnmatch.h>
#include <netdb.h>
#include <netinet/in.h>
#include <stdio.h>
#include <string.h>
#include <sys/socket.h>
#include <sys/utsname.h>
#include <time.h>

static const struct {
	const char *pattern, *string;
	int flags;
} patterns[] = {
	{"*.c", "main.c", 0},
	{"*.c", "main.h", 0},
	{"a?c", "abc", 0},
	{"a?c", "a/c", FNM_PATHNAME},
	{"*", "dir/file", FNM_PATHNAME},
	{"*/*", "dir/file", FNM_PATHNAME},
	{"*", ".hidden", FNM_PERIOD},
	{".*", ".hidden", FNM_PERIOD},
	{"dir/*", "dir/.hidden", FNM_PATHNAME | FNM_PERIOD},
	{"[a-c]x", "bx", 0},
	{"[!a-c]x", "bx", 0},
	{"[^0-9]", "z", 0},
	{"[]]", "]", 0},
	{"[a-]", "-", 0},
	{"\\*", "*", 0},
	{"\\*", "\\*", FNM_NOESCAPE},
	{"HELLO*", "hello world", FNM_CASEFOLD},
	{"src", "src/lib/x.c", FNM_LEADING_DIR},
	{"[abc", "[abc", 0},
	{"**", "", 0},
	{"*a*b*c*", "xxaxxbxxcxx", 0},
	{"*a*b*c*", "xxaxxcxxbxx", 0},
};

static const struct {
	const char *text, *format;
} times[] = {
	{"2024-03-05 10:20:30", "%Y-%m-%d %H:%M:%S"},
	{"Tue Mar  5 10:20:30 2024", "%a %b %e %H:%M:%S %Y"},
	{"05/03/24", "%d/%m/%y"},
	{"99", "%y"},
	{"07:45:01 PM", "%r"},
	{"12 am", "%I %p"},
	{"2024-060", "%Y-%j"},
	{"March 5, 2024 17:01", "%B %d, %Y %R"},
	{"2024-02-30T25:00", "%Y-%m-%dT%H:%M"},
	{"100%", "%y%%"},
};

int main(void) {
	for (size_t i = 0; i < sizeof patterns / sizeof patterns[0]; i++)
		printf("fnmatch(%s, %s, %d) = %d\n", patterns[i].pattern, patterns[i].string, patterns[i].flags,
		       fnmatch(patterns[i].pattern, patterns[i].string, patterns[i].flags) == 0);
	for (size_t i = 0; i < sizeof times / sizeof times[0]; i++) {
		struct tm tm;
		memset(&tm, 0, sizeof tm);
		char *end = strptime(times[i].text, times[i].format, &tm);
		printf("strptime(%s) = %s: %d-%d-%d %d:%d:%d wday %d yday %d\n", times[i].text, end ? end : "NULL",
		       tm.tm_year, tm.tm_mon, tm.tm_mday, tm.tm_hour, tm.tm_min, tm.tm_sec, tm.tm_wday, tm.tm_yday);
	}
	struct sockaddr_in sa;
	memset(&sa, 0, sizeof sa);
	sa.sin_family = AF_INET;
	sa.sin_port = htons(8080);
	sa.sin_addr.s_addr = htonl(INADDR_LOOPBACK);
	char host[64], serv[16];
	int rc = getnameinfo((struct sockaddr *)&sa, sizeof sa, host, sizeof host, serv, sizeof serv,
			     NI_NUMERICHOST | NI_NUMERICSERV);
	printf("getnameinfo numeric %d %s %s\n", rc, host, serv);
	rc = getnameinfo((struct sockaddr *)&sa, sizeof sa, host, sizeof host, NULL, 0, 0);
	printf("getnameinfo loopback %d %s\n", rc, host);
	inet_pton(AF_INET, "192.0.2.7", &sa.sin_addr);
	rc = getnameinfo((struct sockaddr *)&sa, sizeof sa, host, sizeof host, NULL, 0, NI_NUMERICHOST);
	printf("getnameinfo other %d %s\n", rc, host);
	struct utsname u;
	printf("uname %d %s %s\n", uname(&u), u.sysname, u.machine);
	return 0;
}
