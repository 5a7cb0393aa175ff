// expect: hang "is in a loop with no way out" line 7
/* Counts in a register for ever: its state never comes back (the count
 * grows), but the loop has no exit, touches no memory and calls nothing,
 * so nothing can end it. */
int main(void) {
	unsigned long i = 0;
	for (;;)
		i++;
	return (int)i;
}
