// A library error with exceptions off: vector::at out of range ends the
// program as an uncaught std::out_of_range does, with libstdc++'s
// terminate message on stderr and SIGABRT.
#include <cstdio>
#include <vector>

int main() {
	std::vector<int> v{1, 2, 3};
	std::printf("v.at(1) = %d\n", v.at(1));
	std::fflush(stdout);
	return v.at(5);
}
