// expect: crash SIGSEGV "stack overflow" line 2
static int depth(int n) { return n == -1 ? 0 : 1 + depth(n + 1); }

int main(void) { return depth(0); }
