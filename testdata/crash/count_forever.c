// expect: budget "while the program was still running (it wrote memory)" line 9
/* Counts for ever: memory changes at every step, so no state comes back
 * and augur cannot tell it from a long computation. The instruction
 * budget stops it as the analysis's limit, not as a hang. */
static volatile unsigned long n;

int main(void) {
	for (;;)
		n++;
}
