// Two std::threads bump a plain int from a lambda; the other field is a
// std::atomic and does not race.
#include <atomic>
#include <cstdio>
#include <thread>

struct Stats {
	int requests = 0;
	std::atomic<int> errors{0};
};

int main() {
	Stats s;
	auto serve = [&s] {
		for (int i = 0; i < 50; i++) {
			s.requests++; // race: requests output-differs
			if (i % 10 == 0)
				s.errors.fetch_add(1, std::memory_order_relaxed);
		}
	};
	std::thread a(serve), b(serve);
	a.join();
	b.join();
	std::printf("%d requests, %d errors\n", s.requests, s.errors.load());
	return 0;
}
