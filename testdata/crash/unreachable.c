// expect: crash SIGILL "unreachable" line 5
static int pick(int x) {
	if (x > 0)
		return 1;
	__builtin_unreachable();
}

int main(void) { return pick(-1); }
