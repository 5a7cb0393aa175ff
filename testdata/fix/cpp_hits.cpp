// Two std::threads count hits in a plain global; main prints the count.
// The C++ fix makes it a std::atomic<long>, includes <atomic>, and loads
// it explicitly where printf takes it.
#include <cstdio>
#include <thread>

static long hits; // fix: atomic verified

int main() {
	auto work = [] {
		for (int i = 0; i < 20; i++)
			hits++; // race: hits
	};
	std::thread a(work), b(work);
	a.join();
	b.join();
	std::printf("hits %ld\n", hits);
	return 0;
}
