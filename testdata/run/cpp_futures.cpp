// std::async (async and deferred), std::promise/std::future across
// threads, std::packaged_task, shared_future read by two threads, and a
// value set at the setting thread's exit (ready only once it has ended).
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
	std::promise<int> late;
	std::future<int> when = late.get_future();
	std::thread exiting([&late] {
		late.set_value_at_thread_exit(11);
		std::printf("set at exit, not ready yet\n");
	});
	std::printf("at thread exit: %d\n", when.get());
	exiting.join();
	std::promise<int> twice;
	twice.set_value(1);
	try {
		twice.set_value_at_thread_exit(2);
	} catch (const std::future_error &e) {
		std::printf("already satisfied: %d\n", e.code() == std::future_errc::promise_already_satisfied);
	}
	return 0;
}
