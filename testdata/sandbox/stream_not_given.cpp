/* A C++ program that reads its input through std::ifstream, which augur
 * was not given: the stream fails to open, and the name is kept with the
 * program's own line (the std::ifstream's), not the line inside augur's
 * runtime or libstdc++'s templates where open(2) is called. Checked by
 * TestSandboxedCalls.
 *
 * expect-stdout:
 * read 0 numbers
 *
 * expect-missing:
 * /numbers.txt stream_not_given.cpp:21
 */
#include <fstream>
#include <iostream>

static int count_numbers(const char *name);

int main() { std::cout << "read " << count_numbers("numbers.txt") << " numbers\n"; }

static int count_numbers(const char *name) {
	std::ifstream in(name);
	int n = 0;
	for (long x; in >> x;)
		n++;
	return n;
}
