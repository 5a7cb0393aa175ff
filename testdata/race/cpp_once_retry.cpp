// A connection set up once with std::call_once, retried by every client
// while the setup throws. A throwing setup's end happens before the next
// setup's start (C++'s call_once), so its counter does not race; the count
// of failures the clients keep in their catch blocks does.
#include <cstdio>
#include <mutex>
#include <stdexcept>
#include <thread>

static std::once_flag ready;
static int attempts;
static int failures;

static void setup() {
	if (++attempts < 3)
		throw std::runtime_error("refused");
}

static void client() {
	for (;;) {
		try {
			std::call_once(ready, setup);
			return;
		} catch (const std::runtime_error &) {
			failures++; // race: failures output-differs
		}
	}
}

int main() {
	std::thread a(client), b(client);
	a.join();
	b.join();
	std::printf("attempts %d failures %d\n", attempts, failures);
}
