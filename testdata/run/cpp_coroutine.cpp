// C++20 coroutines, which clang lowers before augur sees the program (its
// frames become heap objects, resume and destroy functions): a generator,
// a task that returns a value through co_return, an exception that leaves
// a coroutine through its promise, and a coroutine that a second thread
// resumes (its frame is shared memory, handed over by join). The output
// must be native's.
// cflags: -std=c++20
#include <coroutine>
#include <exception>
#include <iostream>
#include <stdexcept>
#include <thread>

template <typename T> struct Gen {
	struct promise_type {
		T cur{};
		Gen get_return_object() { return Gen{std::coroutine_handle<promise_type>::from_promise(*this)}; }
		std::suspend_always initial_suspend() noexcept { return {}; }
		std::suspend_always final_suspend() noexcept { return {}; }
		std::suspend_always yield_value(T v) {
			cur = v;
			return {};
		}
		void return_void() {}
		void unhandled_exception() { throw; }
	};
	std::coroutine_handle<promise_type> h;
	explicit Gen(std::coroutine_handle<promise_type> h) : h(h) {}
	Gen(Gen &&o) noexcept : h(o.h) { o.h = nullptr; }
	~Gen() {
		if (h)
			h.destroy();
	}
	bool next() {
		h.resume();
		return !h.done();
	}
	T value() const { return h.promise().cur; }
};

Gen<long> fib(int n) {
	long a = 0, b = 1;
	for (int i = 0; i < n; i++) {
		co_yield a;
		long t = a + b;
		a = b;
		b = t;
	}
}

struct Task {
	struct promise_type {
		int result = 0;
		std::exception_ptr error;
		Task get_return_object() { return Task{std::coroutine_handle<promise_type>::from_promise(*this)}; }
		std::suspend_always initial_suspend() noexcept { return {}; }
		std::suspend_always final_suspend() noexcept { return {}; }
		void return_value(int v) { result = v; }
		void unhandled_exception() { error = std::current_exception(); }
	};
	std::coroutine_handle<promise_type> h;
	explicit Task(std::coroutine_handle<promise_type> h) : h(h) {}
	Task(Task &&o) noexcept : h(o.h) { o.h = nullptr; }
	~Task() {
		if (h)
			h.destroy();
	}
	int get() {
		while (!h.done())
			h.resume();
		if (h.promise().error)
			std::rethrow_exception(h.promise().error);
		return h.promise().result;
	}
};

Task sum_to(int n) {
	int s = 0;
	for (int i = 1; i <= n; i++) {
		s += i;
		if (i % 3 == 0)
			co_await std::suspend_always{};
	}
	co_return s;
}

Task fails(int n) {
	co_await std::suspend_always{};
	if (n > 2)
		throw std::runtime_error("too many: " + std::to_string(n));
	co_return n;
}

int main() {
	auto g = fib(12);
	while (g.next())
		std::cout << g.value() << " ";
	std::cout << "\n";
	std::cout << "sum " << sum_to(10).get() << "\n";
	try {
		fails(5).get();
	} catch (const std::exception &e) {
		std::cout << "caught " << e.what() << "\n";
	}
	Task t = sum_to(100);
	std::thread other([&t] { t.h.resume(); }); // runs it to its first suspension
	other.join();
	std::cout << "resumed elsewhere, then " << t.get() << "\n";
	return 0;
}
