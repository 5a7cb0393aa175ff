// expect: budget "instruction budget" line 0
static volatile int spin = 1;

int main(void) {
	while (spin)
		;
	return 0;
}
