/* Byte order and address conversions: htons/htonl and back, inet_aton's
 * lenient forms, inet_addr, inet_ntoa, inet_pton and inet_ntop for IPv4 and
 * IPv6 (zero compression, mapped addresses), and the rejects. */
#include <arpa/inet.h>
#include <stdio.h>
#include <string.h>

int main(void) {
	printf("htons %#x htonl %#x ntohs %#x ntohl %#x\n", htons(0x1234), htonl(0x12345678), ntohs(htons(80)),
	       ntohl(htonl(3232235777u)));
	const char *v4[] = {"192.168.1.1", "10.0.0.255", "127.1", "0x7f.1", "010.0.0.1", "1.2.3", "256.1.1.1", "1.2.3.4.5", "a.b.c.d", ""};
	for (size_t i = 0; i < sizeof v4 / sizeof v4[0]; i++) {
		struct in_addr a;
		int ok = inet_aton(v4[i], &a);
		unsigned char b[4];
		int strict = inet_pton(AF_INET, v4[i], b);
		printf("%-12s aton %d -> %-15s pton %d addr %08x\n", v4[i], ok, ok ? inet_ntoa(a) : "-", strict,
		       ntohl(inet_addr(v4[i])));
	}
	const char *v6[] = {"::1", "::", "2001:db8::1", "fe80::1:2:3:4", "1:0:0:2:0:0:0:3", "::ffff:192.0.2.1", "1:2:3:4:5:6:7:8",
	                    "1::2::3", "12345::1", "::1.2.3.4", "1:2:3:4:5:6:7::"};
	for (size_t i = 0; i < sizeof v6 / sizeof v6[0]; i++) {
		unsigned char b[16];
		char out[INET6_ADDRSTRLEN];
		int ok = inet_pton(AF_INET6, v6[i], b);
		printf("%-18s %d %s\n", v6[i], ok, ok == 1 ? inet_ntop(AF_INET6, b, out, sizeof out) : "-");
	}
	unsigned char b[4] = {8, 8, 4, 4};
	char small[8];
	printf("too small: %s\n", inet_ntop(AF_INET, b, small, sizeof small) ? "ok" : "NULL");
	return 0;
}
