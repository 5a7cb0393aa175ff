// std::async tasks that call std::call_once: the async state sets the
// task's result inside a std::call_once of its own, so the task's
// call_once runs nested in it (two pthread_once routines on one thread).
#include <cstdio>
#include <future>
#include <mutex>
#include <vector>

static std::once_flag setup_once;
static int setups;
static std::mutex mu;
static long total;

static int task(int k) {
	std::call_once(setup_once, [] { setups++; });
	std::lock_guard<std::mutex> g(mu);
	total += k;
	return k * k;
}

int main() {
	std::vector<std::future<int>> fs;
	for (int i = 1; i <= 3; i++)
		fs.push_back(std::async(std::launch::async, task, i));
	int squares = 0;
	for (auto &f : fs)
		squares += f.get();
	std::printf("setups %d total %ld squares %d\n", setups, total, squares);
}
