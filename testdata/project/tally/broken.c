/* Part of the tally project (see main.c): a file that does not compile
 * (a half-written change). It mentions tally_start but does not define
 * it, so it is compiled, found wanting, and not taken. */
#include "tally.h"

int tally_reset(struct tally *t) {
	return t->missing_field + tally_start(1);
}
