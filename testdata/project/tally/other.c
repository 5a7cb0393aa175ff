/* Another program in the tally project's directory (see main.c): it
 * defines main, and a log_line and other_banner of its own, so it is
 * never taken. */
#include <stdio.h>

void log_line(const char *what, int n) { printf("[other] %s %d\n", what, n); }

void other_banner(void) { puts("other"); }

int main(void) {
	log_line("other", 1);
	return 0;
}
