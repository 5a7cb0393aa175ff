/* What a program asks of the network's configuration: the one interface,
 * the loopback "lo" (index 1, 127.0.0.1/8 and ::1), and the services of
 * /etc/services that servers and clients name most. */
#define _GNU_SOURCE
#include <arpa/inet.h>
#include <errno.h>
#include <ifaddrs.h>
#include <net/if.h>
#include <netdb.h>
#include <netinet/in.h>
#include <stdlib.h>
#include <string.h>

#define WEAK __attribute__((weak))

WEAK unsigned if_nametoindex(const char *name) {
	if (strcmp(name, "lo") == 0)
		return 1;
	errno = ENODEV;
	return 0;
}

WEAK char *if_indextoname(unsigned index, char *name) {
	if (index != 1) {
		errno = ENXIO;
		return NULL;
	}
	return strcpy(name, "lo");
}

/* getifaddrs lists the loopback's IPv4 and IPv6 addresses; freeifaddrs
 * frees the list, which is one allocation. */
struct ifaddrs_block {
	struct ifaddrs ifa[2];
	struct sockaddr_in addr4, mask4;
	struct sockaddr_in6 addr6, mask6;
	char name[3];
};

WEAK int getifaddrs(struct ifaddrs **out) {
	struct ifaddrs_block *b = calloc(1, sizeof *b);
	if (!b)
		return -1;
	strcpy(b->name, "lo");
	b->addr4.sin_family = b->mask4.sin_family = AF_INET;
	b->addr4.sin_addr.s_addr = htonl(INADDR_LOOPBACK);
	b->mask4.sin_addr.s_addr = htonl(0xff000000);
	b->addr6.sin6_family = b->mask6.sin6_family = AF_INET6;
	b->addr6.sin6_addr = in6addr_loopback;
	memset(&b->mask6.sin6_addr, 0xff, sizeof b->mask6.sin6_addr);
	for (int i = 0; i < 2; i++) {
		b->ifa[i].ifa_name = b->name;
		b->ifa[i].ifa_flags = IFF_UP | IFF_LOOPBACK | IFF_RUNNING;
	}
	b->ifa[0].ifa_next = &b->ifa[1];
	b->ifa[0].ifa_addr = (struct sockaddr *)&b->addr4;
	b->ifa[0].ifa_netmask = (struct sockaddr *)&b->mask4;
	b->ifa[1].ifa_addr = (struct sockaddr *)&b->addr6;
	b->ifa[1].ifa_netmask = (struct sockaddr *)&b->mask6;
	*out = b->ifa;
	return 0;
}

WEAK void freeifaddrs(struct ifaddrs *ifa) { free(ifa); }

static const struct {
	const char *name;
	int port;
	const char *proto; /* NULL: both tcp and udp */
} services[] = {
	{"echo", 7, NULL}, {"ftp", 21, "tcp"}, {"ssh", 22, NULL}, {"telnet", 23, "tcp"},
	{"smtp", 25, "tcp"}, {"domain", 53, NULL}, {"http", 80, "tcp"}, {"pop3", 110, "tcp"},
	{"ntp", 123, "udp"}, {"imap", 143, "tcp"}, {"snmp", 161, "udp"}, {"https", 443, "tcp"},
	{"syslog", 514, "udp"}, {"imaps", 993, "tcp"}, {"pop3s", 995, "tcp"}, {"mysql", 3306, "tcp"},
	{"postgresql", 5432, "tcp"}, {"memcache", 11211, NULL},
};

static struct servent *service(int i, const char *proto) {
	static __thread struct servent s;
	static __thread char *aliases[1];
	s.s_name = (char *)services[i].name;
	s.s_aliases = aliases;
	s.s_port = htons(services[i].port);
	s.s_proto = (char *)(proto ? proto : services[i].proto ? services[i].proto : "tcp");
	return &s;
}

static int matches(int i, const char *proto) {
	return !proto || !services[i].proto || strcmp(proto, services[i].proto) == 0;
}

WEAK struct servent *getservbyname(const char *name, const char *proto) {
	for (size_t i = 0; i < sizeof services / sizeof services[0]; i++)
		if (strcmp(services[i].name, name) == 0 && matches(i, proto))
			return service(i, proto);
	return NULL;
}

WEAK struct servent *getservbyport(int port, const char *proto) {
	for (size_t i = 0; i < sizeof services / sizeof services[0]; i++)
		if (htons(services[i].port) == port && matches(i, proto))
			return service(i, proto);
	return NULL;
}
