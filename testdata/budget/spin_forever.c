/* Counts in a volatile variable for ever: every access is a preemption
 * point, whose scheduling decisions the trace folds into one repeated
 * entry, so a spin costs time but no memory. The count changes memory at
 * every step, so no state comes back: augur cannot tell it from a long
 * computation, and running out of instructions leaves the analysis
 * incomplete (exit 4) rather than reporting a hang.
 *
 * augur run --timeout 1s => exit 124: time budget of 1s exhausted; rss < 300MiB
 * augur analyze --max-instructions 5000000 => exit 4: INCOMPLETE: augur: instruction budget of 5000000 exhausted while the program was still running (it wrote memory); rss < 400MiB
 */
volatile int x;

int main(void) {
	for (;;)
		x++; /* budget: instructions */
}
