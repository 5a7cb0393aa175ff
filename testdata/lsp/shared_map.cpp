// Two threads insert into one std::map with no lock. The races are inside
// libstdc++'s tree code; the editor shows them at the program's one call,
// folded into a single diagnostic that names std::map::operator[].
#include <cstdio>
#include <map>
#include <thread>

static std::map<int, int> table;

static void fill(int base) {
	for (int i = 0; i < 2; i++)
		table[base + i] = i;
}

int main() {
	std::thread a(fill, 0), b(fill, 100);
	a.join();
	b.join();
	std::printf("%zu\n", table.size());
	return 0;
}
