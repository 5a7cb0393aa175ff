/* An input that picks one of eight modes, each running the whole workload
 * (the same loop of a million steps, with its own weight), as a
 * compressor's options each run the whole compression: nine paths of
 * about the same length, the seed's (mode 0) included. */
// expect: paths 9
#include <augur.h>
#include <stdio.h>

int main(void) {
	unsigned char mode = 0;
	augur_make_symbolic(&mode, sizeof mode, "mode");
	unsigned weight;
	switch (mode) {
	case 'a': weight = 3; break;
	case 'b': weight = 5; break;
	case 'c': weight = 7; break;
	case 'd': weight = 11; break;
	case 'e': weight = 13; break;
	case 'f': weight = 17; break;
	case 'g': weight = 19; break;
	case 'h': weight = 23; break;
	default: weight = 1; break;
	}
	unsigned long sum = 0;
	for (unsigned i = 0; i < 1000000; i++)
		sum += (unsigned long)i * weight;
	printf("%lu\n", sum);
	return 0;
}
