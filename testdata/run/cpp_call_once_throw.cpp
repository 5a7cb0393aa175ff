// std::call_once whose callable throws: the exception reaches the caller
// and the flag stays unset, so a later call (here another thread's, or
// the same thread's retry) runs the callable again, until one returns.
#include <atomic>
#include <cstdio>
#include <mutex>
#include <stdexcept>
#include <thread>
#include <vector>

static std::once_flag flag;
static int attempts, completed;
static std::atomic<int> failures{0};

static void connect() {
	if (++attempts < 3)
		throw std::runtime_error("refused");
	completed++;
}

static void client() {
	for (;;) {
		try {
			std::call_once(flag, connect);
			return;
		} catch (const std::runtime_error &) {
			failures++;
		}
	}
}

int main() {
	std::vector<std::thread> ts;
	for (int i = 0; i < 3; i++)
		ts.emplace_back(client);
	for (auto &t : ts)
		t.join();
	std::printf("attempts %d completed %d failures %d\n", attempts, completed, failures.load());
}
