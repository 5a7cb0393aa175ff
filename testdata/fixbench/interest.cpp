// A ledger guards its total with a member mutex taken by lock_guard;
// the bonus job reads the total, computes a flat bonus and writes it back
// without it.
#include <cstdio>
#include <mutex>
#include <thread>

class Ledger {
public:
	void add(long v) {
		std::lock_guard<std::mutex> g(mu_);
		total_ += v;
	}
	void interest() {
		long t = total_; // fix: atomic verified // fix: lock mu_ verified
		long gain = t > 0 ? 7 : 0;
		total_ = t + gain;
	}
	long total() const { return total_; }

private:
	std::mutex mu_;
	long total_ = 1000; // fix: atomic rejected
};

int main() {
	Ledger l;
	std::thread a([&] {
		for (int i = 0; i < 3; i++)
			l.add(100);
	});
	std::thread b([&] { l.interest(); });
	a.join();
	b.join();
	std::printf("total %ld\n", l.total());
	return 0;
}
