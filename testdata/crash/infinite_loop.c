// expect: hang "loops forever" line 5
static volatile int spin = 1;

int main(void) {
	while (spin)
		;
	return 0;
}
