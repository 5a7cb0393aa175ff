/* setjmp and longjmp: an error path that unwinds three calls deep, a
 * longjmp value of 0 arriving as 1, a retry loop that re-arms setjmp each
 * time, and locals in memory keeping the values they had at the jump. */
#include <setjmp.h>
#include <stdio.h>

static jmp_buf onError;
static int depthReached;

static void parse(int level, int failAt) {
	char buf[32];
	snprintf(buf, sizeof buf, "level %d", level);
	depthReached = level;
	if (level == failAt)
		longjmp(onError, level * 10);
	parse(level + 1, failAt);
	printf("never printed for %s\n", buf);
}

static int attempt(int failAt) {
	int code = setjmp(onError);
	if (code != 0) {
		printf("recovered from %d at depth %d\n", code, depthReached);
		return code;
	}
	parse(1, failAt);
	return 0;
}

int main(void) {
	attempt(3);
	attempt(1);

	jmp_buf zero;
	volatile int hops = 0;
	if (setjmp(zero) == 0) {
		hops++;
		longjmp(zero, 0);
	}
	printf("longjmp(env, 0) returned nonzero after %d hop(s)\n", hops);

	jmp_buf retry;
	volatile int tries = 0;
	int r = setjmp(retry);
	tries++;
	if (tries < 4)
		longjmp(retry, tries);
	printf("retried: last value %d, tries %d\n", r, tries);
	return 0;
}
