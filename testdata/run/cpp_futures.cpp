// std::async (async and deferred), std::promise/std::future across
// threads, std::packaged_task, and shared_future read by two threads.
#include <cstdio>
#include <future>
#include <thread>
#include <vector>

static long fib(int n) { return n < 2 ? n : fib(n - 1) + fib(n - 2); }

int main() {
	auto a = std::async(std::launch::async, fib, 15);
	auto d = std::async(std::launch::deferred, [] { return 7; });
	std::printf("async %ld deferred %d\n", a.get(), d.get());

	std::promise<int> p;
	std::future<int> f = p.get_future();
	std::thread setter([&p] { p.set_value(123); });
	std::printf("promise %d\n", f.get());
	setter.join();

	std::packaged_task<int(int, int)> task([](int x, int y) { return x * y; });
	std::future<int> tf = task.get_future();
	std::thread runner(std::move(task), 6, 7);
	runner.join();
	std::printf("packaged %d\n", tf.get());

	std::promise<void> go;
	std::shared_future<void> ready = go.get_future().share();
	std::vector<std::thread> waiters;
	int seen[2] = {0, 0};
	for (int i = 0; i < 2; i++)
		waiters.emplace_back([ready, &seen, i] {
			ready.wait();
			seen[i] = i + 1;
		});
	go.set_value();
	for (auto &t : waiters)
		t.join();
	std::printf("shared %d %d valid %d\n", seen[0], seen[1], ready.valid());

	std::vector<std::future<int>> parts;
	for (int i = 0; i < 4; i++)
		parts.push_back(std::async(std::launch::async, [i] { return i * i; }));
	int total = 0;
	for (auto &fu : parts)
		total += fu.get();
	std::printf("squares %d\n", total);
	return 0;
}
