// Exceptions across threads: one caught inside a std::thread, one carried
// from std::async to future::get and from a promise's set_exception,
// std::system_error from joining a thread twice, and a lock_guard that
// unlocks while unwinding.
#include <cstdio>
#include <future>
#include <mutex>
#include <stdexcept>
#include <system_error>
#include <thread>

std::mutex m;
int guarded;

void risky(int n) {
	std::lock_guard<std::mutex> g(m);
	guarded++;
	if (n % 2)
		throw std::runtime_error("odd " + std::to_string(n));
}

int main() {
	std::thread t([] {
		try {
			risky(3);
		} catch (const std::exception &e) {
			std::printf("thread caught: %s\n", e.what());
		}
	});
	t.join();
	try {
		t.join();
	} catch (const std::system_error &e) {
		std::printf("second join: %s (code %d)\n", e.what(), e.code().value());
	}
	auto f = std::async(std::launch::async, [] {
		risky(5);
		return 1;
	});
	try {
		f.get();
	} catch (const std::runtime_error &e) {
		std::printf("async: %s\n", e.what());
	}
	std::promise<int> p;
	std::future<int> pf = p.get_future();
	std::thread setter([&p] { p.set_exception(std::make_exception_ptr(std::out_of_range("from promise"))); });
	setter.join();
	try {
		pf.get();
	} catch (const std::out_of_range &e) {
		std::printf("promise: %s\n", e.what());
	}
	std::promise<void> broken;
	std::future<void> bf = broken.get_future();
	{ std::promise<void> gone = std::move(broken); }
	try {
		bf.get();
	} catch (const std::future_error &e) {
		std::printf("future_error: %s\n", e.what());
	}
	std::lock_guard<std::mutex> g(m); // unlocked by every unwinding above
	std::printf("guarded %d\n", guarded);
	return 0;
}
