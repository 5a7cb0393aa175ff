// std::shared_mutex: readers share the lock with shared_lock, writers take
// it alone with unique_lock; a snapshot read under the shared lock is
// always consistent.
#include <cstdio>
#include <mutex>
#include <shared_mutex>
#include <thread>
#include <vector>

std::shared_mutex rw;
int x, y; // the invariant: y == 2 * x
int badReads;

void writer() {
	for (int i = 0; i < 20; i++) {
		std::unique_lock<std::shared_mutex> w(rw);
		x++;
		y = 2 * x;
	}
}

void reader() {
	for (int i = 0; i < 20; i++) {
		std::shared_lock<std::shared_mutex> r(rw);
		if (y != 2 * x) {
			std::unique_lock<std::shared_mutex> never(rw, std::defer_lock);
			badReads++;
		}
	}
}

int main() {
	std::vector<std::thread> ts;
	ts.emplace_back(writer);
	ts.emplace_back(reader);
	ts.emplace_back(reader);
	ts.emplace_back(writer);
	for (auto &t : ts)
		t.join();
	std::shared_lock<std::shared_mutex> r(rw);
	std::printf("x=%d y=%d bad reads=%d\n", x, y, badReads);
	std::printf("try_lock while shared: %d\n", rw.try_lock());
	return 0;
}
