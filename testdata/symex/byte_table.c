/* A checksum of sixteen input bytes through a 256-entry table: each load's
 * index is an input byte mixed with the checksum so far and masked to
 * 0..255, so it can neither leave the table nor reach another object. The
 * exploration needs no solver query to know that (expr.Bounds); only the
 * branch on the result forks. */
// expect: crash "division by zero"
#include <augur.h>
#include <stdint.h>

static uint32_t table[256];

int main(void) {
	for (uint32_t i = 0; i < 256; i++) {
		uint32_t c = i;
		for (int k = 0; k < 8; k++)
			c = c & 1 ? 0xedb88320u ^ (c >> 1) : c >> 1;
		table[i] = c;
	}
	unsigned char in[16] = {0};
	augur_make_symbolic(in, sizeof in, "in");
	uint32_t crc = 0xffffffffu;
	for (int i = 0; i < 16; i++)
		crc = table[(crc ^ in[i]) & 0xff] ^ (crc >> 8);
	if (in[0] == 'z')
		return 100 / (int)(in[1] - in[1]);
	return (int)(crc & 1);
}
