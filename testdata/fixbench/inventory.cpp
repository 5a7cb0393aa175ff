// An inventory guards its stock with a member mutex; restock() takes it,
// sell() checks and decrements without it, and two sales can sell the
// last item twice.
#include <cassert>
#include <cstdio>
#include <mutex>
#include <thread>

class Inventory {
public:
	void restock(int n) {
		std::lock_guard<std::mutex> g(mu_);
		stock_ += n;
	}
	bool sell() {
		if (stock_ > 0) { // fix: lock mu_ verified
			stock_--;
			return true;
		}
		return false;
	}
	int stock() const { return stock_; }

private:
	std::mutex mu_;
	int stock_ = 1; // fix: atomic verified
};

int main() {
	Inventory inv;
	int sold = 0;
	std::thread a([&] { sold += inv.sell(); });
	std::thread b([&] { inv.restock(0); });
	a.join();
	b.join();
	sold += inv.sell();
	assert(inv.stock() >= 0);
	std::printf("sold %d stock %d\n", sold, inv.stock());
	return 0;
}
