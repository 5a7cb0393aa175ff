/* Calendar arithmetic on fixed instants (the clock itself is virtual, so
 * only conversions are compared): gmtime across leap years, centuries and
 * before 1970, timegm normalizing out-of-range fields, strftime with every
 * common conversion, asctime, and difftime. */
#define _GNU_SOURCE
#include <stdio.h>
#include <string.h>
#include <time.h>

int main(void) {
	const time_t instants[] = {0, 951782400, 951868799, 1234567890, 1709164800, 4102444800LL, -86401, 1700000000};
	char buf[256];
	for (size_t i = 0; i < sizeof instants / sizeof instants[0]; i++) {
		struct tm tm;
		gmtime_r(&instants[i], &tm);
		strftime(buf, sizeof buf, "%Y-%m-%d %H:%M:%S %a %b yday=%j wday=%w U=%U W=%W V=%V G=%G %I%p %e|%C|%y", &tm);
		printf("%lld: %s\n", (long long)instants[i], buf);
	}
	struct tm odd = {.tm_year = 123, .tm_mon = 13, .tm_mday = 35, .tm_hour = 25, .tm_min = 61, .tm_sec = 61};
	time_t t = timegm(&odd);
	printf("normalized %lld -> %s", (long long)t, asctime(&odd));
	struct tm y2k;
	time_t y = 946684800;
	gmtime_r(&y, &y2k);
	strftime(buf, sizeof buf, "%c|%D|%F|%T|%R|%r|%x|%X|%u|%s|%%|%n|%t|", &y2k);
	printf("%s\n", buf);
	printf("strftime too small: %zu\n", strftime(buf, 5, "%Y-%m-%d", &y2k));
	printf("difftime %.1f\n", difftime(1000, 250));
	return 0;
}
