/* A program split over files with no build configuration: main.c uses
 * the tally of tally.c, which logs through log.c. augur completes the
 * program from the directory as a linker would (analyzer/frontend/resolve):
 *   augur analyze main.c => sources taken: tally.c (defines tally_start,
 *   needed by main.c), log.c (defines log_line, needed by tally.c)
 * other.c is another program (it defines main) and broken.c does not
 * compile: neither is taken. The race: the workers bump `hits` without
 * the lock that tally_total takes (tally.c), output-differs or harmless
 * depending on the order; detection must find it, which it cannot
 * without tally.c. */
#include <stdio.h>
#include "tally.h"

int main(void) {
	struct tally *t = tally_start(2);
	tally_wait(t);
	printf("total %d\n", tally_total(t));
	return 0;
}
