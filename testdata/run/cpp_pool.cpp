// A fixed thread pool: std::function jobs in a queue guarded by a mutex
// and condition variable, results returned through std::future from
// packaged tasks, and an orderly shutdown.
#include <condition_variable>
#include <cstdio>
#include <functional>
#include <future>
#include <mutex>
#include <queue>
#include <thread>
#include <vector>

class Pool {
	std::vector<std::thread> workers;
	std::queue<std::function<void()>> jobs;
	std::mutex m;
	std::condition_variable cv;
	bool stopping = false;

public:
	explicit Pool(int n) {
		for (int i = 0; i < n; i++)
			workers.emplace_back([this] {
				for (;;) {
					std::function<void()> job;
					{
						std::unique_lock<std::mutex> l(m);
						cv.wait(l, [this] { return stopping || !jobs.empty(); });
						if (jobs.empty())
							return;
						job = std::move(jobs.front());
						jobs.pop();
					}
					job();
				}
			});
	}
	template <typename F> std::future<int> submit(F f) {
		auto task = std::make_shared<std::packaged_task<int()>>(f);
		std::future<int> res = task->get_future();
		{
			std::lock_guard<std::mutex> l(m);
			jobs.push([task] { (*task)(); });
		}
		cv.notify_one();
		return res;
	}
	~Pool() {
		{
			std::lock_guard<std::mutex> l(m);
			stopping = true;
		}
		cv.notify_all();
		for (auto &w : workers)
			w.join();
	}
};

int main() {
	std::vector<std::future<int>> results;
	{
		Pool pool(3);
		for (int i = 1; i <= 8; i++)
			results.push_back(pool.submit([i] { return i * i * i; }));
		int total = 0;
		for (auto &r : results)
			total += r.get();
		std::printf("sum of cubes 1..8 = %d\n", total);
	}
	std::printf("pool shut down, hardware threads > 0: %d\n", std::thread::hardware_concurrency() > 0);
	return 0;
}
