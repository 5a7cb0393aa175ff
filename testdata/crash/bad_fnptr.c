// expect: crash SIGSEGV "call through invalid function pointer" line 8
typedef int (*fn)(void);

static volatile long raw = 0x1234;

int main(void) {
	fn f = (fn)raw;
	return f();
}
