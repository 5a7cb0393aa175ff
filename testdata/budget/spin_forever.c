/* Spins on a volatile variable for ever: every access is a preemption
 * point, whose scheduling decisions the trace folds into one repeated
 * entry, so a spin costs time but no memory.
 *
 * augur run --timeout 1s => exit 124: time budget of 1s exhausted; rss < 300MiB
 * augur analyze --max-instructions 5000000 => exit 0: hang: instruction budget of 5000000 exhausted; rss < 400MiB
 */
volatile int x;

int main(void) {
	for (;;)
		x++; /* budget: instructions */
}
