// expect: crash SIGSEGV "truncated_pointer.c:16:39, keeps only its lower half" line 25
/* Code written for a 32-bit or non-PIE address space aligns a buffer
 * through `unsigned`, which keeps only the lower half of a 64-bit
 * address. The write through what is left is wild, and the report says
 * where the pointer was cut. A pointer hashed the same way beforehand
 * (line 15) is harmless and is not the one named. */
#include <stdio.h>
#include <stdlib.h>

#define PAGE 4096

int main(void) {
	char *raw = malloc(3 * PAGE);
	char *other = malloc(16);
	unsigned bucket = (unsigned)other % 7;
	char *page = (char *)(unsigned long)((unsigned)raw + PAGE - (unsigned)raw % PAGE);
	printf("bucket %u\n", bucket);
	/* The same conversion kept whole is fine. */
	char *whole = (char *)((unsigned long)raw + PAGE - (unsigned long)raw % PAGE);
	whole[0] = 1;
	printf("aligned %d\n", whole[0]);
	/* Only the lower half: what is left is the offset within raw's
	 * object under augur, a page above the null page natively too
	 * wherever the heap lies above 4 GiB. */
	page[0] = 1;
	return 0;
}
