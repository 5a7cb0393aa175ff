/* Forks 2^14 states over a program holding 64 KiB of data: a measure of
 * how much each live state costs when states share memory copy-on-write. */
#include <augur.h>
#include <string.h>

static char big[64 * 1024];

int main(void) {
	unsigned char in[14];
	memset(big, 7, sizeof big);
	augur_make_symbolic(in, sizeof in, "in");
	int score = 0;
	for (int i = 0; i < 14; i++)
		if (in[i] & 1)
			score += i;
	big[score] = 1;
	return 0;
}
