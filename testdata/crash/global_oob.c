// expect: crash SIGSEGV "out of bounds global access: read of 4 bytes at offset 20 of global 'table'" line 7
static int table[5] = {1, 2, 3, 4, 5};
static volatile int idx = 5;

int main(void) {
	int i = idx;
	return table[i];
}
