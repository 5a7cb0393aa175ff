// The drand48 family draws glibc's numbers; modf splits as glibc does,
// signs, infinities and NaNs included; the identity and resource calls a
// server makes at start answer as for an unprivileged user.
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <sys/mman.h>
#include <sys/resource.h>
#include <unistd.h>

int main(void) {
	srand48(42);
	for (int i = 0; i < 3; i++)
		printf("drand48 %.17g lrand48 %ld mrand48 %ld\n", drand48(), lrand48(), mrand48());
	unsigned short x[3] = {1, 2, 3};
	printf("erand48 %.17g nrand48 %ld jrand48 %ld\n", erand48(x), nrand48(x), jrand48(x));
	unsigned short s[3] = {7, 8, 9};
	unsigned short *old = seed48(s);
	printf("seed48 gave back a state: %d; then drand48 %.17g\n", old != NULL, drand48());
	unsigned short p[7] = {1, 2, 3, 5, 0, 0, 1};
	lcong48(p);
	printf("lcong48: lrand48 %ld %ld\n", lrand48(), lrand48());

	double v[] = {3.75, -3.75, -3.0, 0.5, -0.0, 1e300, INFINITY, -INFINITY};
	for (int i = 0; i < 8; i++) {
		double ip, fp = modf(v[i], &ip);
		printf("modf(%g) = %g + %g (signbit %d)\n", v[i], ip, fp, signbit(fp) != 0);
	}
	double ip, fp = modf(NAN, &ip);
	printf("modf(nan): %d %d\n", isnan(fp), isnan(ip));
	float fi, ff = modff(-2.5f, &fi);
	printf("modff(-2.5) = %g + %g\n", fi, ff);

	struct rusage u;
	printf("getrusage: %d, children %d\n", getrusage(RUSAGE_SELF, &u), getrusage(RUSAGE_CHILDREN, &u));
	printf("setuid(getuid()): %d, setgid(getgid()): %d\n", setuid(getuid()), setgid(getgid()));
	(void)mlockall(MCL_CURRENT); /* natively it may be refused without the capability */
	munlockall();
	return 0;
}
