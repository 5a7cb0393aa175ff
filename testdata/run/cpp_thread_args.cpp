// std::thread with a lambda capturing by reference, a function with
// arguments passed by value and by std::ref, a member function, a moved
// thread, and join; each thread's result is read after the join.
#include <cstdio>
#include <functional>
#include <string>
#include <thread>
#include <vector>

static void scale(std::vector<int> &v, int factor) {
	for (int &x : v)
		x *= factor;
}

struct Counter {
	int hits = 0;
	void add(int n) {
		for (int i = 0; i < n; i++)
			hits++;
	}
};

int main() {
	int sum = 0;
	std::thread a([&sum] {
		for (int i = 1; i <= 100; i++)
			sum += i;
	});
	a.join();

	std::vector<int> v{1, 2, 3};
	std::thread b(scale, std::ref(v), 10);
	b.join();

	Counter c;
	std::thread t(&Counter::add, &c, 7);
	std::thread moved = std::move(t);
	std::printf("t joinable after move: %d, moved joinable: %d\n", t.joinable(), moved.joinable());
	moved.join();

	std::string label = "worker";
	std::string result;
	std::thread d([label, &result](int n) { result = label + "-" + std::to_string(n); }, 42);
	d.join();

	std::printf("sum=%d v=%d,%d,%d hits=%d result=%s\n", sum, v[0], v[1], v[2], c.hits, result.c_str());
	std::printf("same id: %d\n", std::this_thread::get_id() == std::this_thread::get_id());
	return 0;
}
