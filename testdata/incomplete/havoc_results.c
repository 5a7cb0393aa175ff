/* What a havocked call returns: an integer input (0 unless a value is
 * replayed for havoc_read_sensor), a pointer to fresh zeroed memory, and
 * nothing for void; pointer arguments' memory is left as it was. */
#include <stdio.h>
#include <string.h>

int read_sensor(int *out);
char *lookup(const char *key);
void log_event(const char *what);

int main(void) {
	int v = 42;
	int r = read_sensor(&v);
	char *p = lookup("k");
	log_event("done");
	printf("r=%d v=%d p0=%d p4095=%d len=%zu\n", r, v, p[0], p[4095], strlen(p));
	return r;
}
