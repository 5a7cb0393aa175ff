/* Control flow: switch with fallthrough and sparse cases, goto, nested loops
 * with break and continue, do-while, short-circuit evaluation. */
#include <stdio.h>

static const char *classify(int c) {
	switch (c) {
	case 0:
		return "zero";
	case 1:
	case 2:
	case 3:
		return "small";
	case 100:
		return "hundred";
	case -5:
		return "minus five";
	case 1000000:
		return "million";
	default:
		return c < 0 ? "negative" : "other";
	}
}

static int side_effects;
static int touch(int v) {
	side_effects++;
	return v;
}

int main(void) {
	int probes[] = {0, 2, 3, 7, 100, -5, -6, 1000000};
	for (int i = 0; i < 8; i++)
		printf("%d:%s ", probes[i], classify(probes[i]));
	printf("\n");
	int found = -1;
	for (int i = 0; i < 10; i++) {
		for (int j = 0; j < 10; j++) {
			if ((i + j) % 3)
				continue;
			if (i * j == 24) {
				found = i * 10 + j;
				goto done;
			}
		}
	}
done:
	printf("found %d\n", found);
	int n = 0;
	do {
		n += 3;
	} while (n < 20);
	int fall = 0;
	switch (n % 4) {
	case 1:
		fall += 1;
		/* fall through */
	case 2:
		fall += 2;
		break;
	default:
		fall = -1;
	}
	if (touch(0) && touch(1))
		n++;
	if (touch(1) || touch(1))
		n++;
	printf("n %d fall %d side %d\n", n, fall, side_effects);
	return 0;
}
