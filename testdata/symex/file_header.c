/* Parses a binary header from a file; a length field above the buffer's
 * capacity overflows it. */
// expect: --sym-file header.bin:4: crash "out of bounds"
#include <stdio.h>

int main(void) {
	unsigned char hdr[4];
	char buf[8];
	FILE *f = fopen("header.bin", "rb");
	if (!f || fread(hdr, 1, 4, f) != 4)
		return 1;
	fclose(f);
	if (hdr[0] != 0x7f || hdr[1] != 'A')
		return 2;
	unsigned len = hdr[2];
	for (unsigned i = 0; i < len && i < 12; i++)
		buf[i] = (char)hdr[3];
	return buf[0];
}
