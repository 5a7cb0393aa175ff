/* Memory layout: packed structs, alignment, offsetof, arrays of unions, and
 * byte-level access through char pointers. */
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <string.h>

struct __attribute__((packed)) header {
	uint8_t kind;
	uint32_t length;
	uint16_t flags;
};

struct padded {
	char c;
	double d;
	short s;
};

union cell {
	int32_t i;
	float f;
	uint8_t raw[4];
};

int main(void) {
	printf("sizes %zu %zu %zu\n", sizeof(struct header), sizeof(struct padded), sizeof(union cell));
	printf("offsets %zu %zu %zu\n", offsetof(struct header, flags), offsetof(struct padded, d), offsetof(struct padded, s));
	struct header h = {7, 0x01020304, 0xBEEF};
	unsigned char bytes[sizeof h];
	memcpy(bytes, &h, sizeof h);
	for (size_t i = 0; i < sizeof h; i++)
		printf("%02x", bytes[i]);
	printf("\n");
	struct header copy;
	memcpy(&copy, bytes, sizeof copy);
	printf("roundtrip %u %x %x\n", copy.kind, copy.length, copy.flags);
	union cell cells[3];
	cells[0].i = -1;
	cells[1].f = -2.0f;
	cells[2].i = 0x41424344;
	for (int i = 0; i < 3; i++)
		printf("%02x%02x%02x%02x ", cells[i].raw[0], cells[i].raw[1], cells[i].raw[2], cells[i].raw[3]);
	printf("\n");
	uint64_t word = 0;
	unsigned char *p = (unsigned char *)&word;
	for (int i = 0; i < 8; i++)
		p[i] = (unsigned char)(i * 17);
	printf("word %016llx\n", (unsigned long long)word);
	return 0;
}
