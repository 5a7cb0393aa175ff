// Two clerks sell from one shelf. restock() holds the shelf's mutex;
// sell() checks and takes an item without it and returns from inside
// the check, so two clerks can both take the last item.
#include <cassert>
#include <cstdio>
#include <mutex>
#include <thread>

class Shelf {
public:
	void restock(int n) {
		std::lock_guard<std::mutex> g(mu_);
		items_ += n;
	}
	bool sell() {
		if (items_ > 0) {
			items_--;
			return true;
		}
		return false;
	}
	int items() const { return items_; }

private:
	std::mutex mu_;
	int items_ = 1; // fix: atomic rejected
};

int main() {
	Shelf shelf;
	shelf.restock(0);
	int a_sold = 0, b_sold = 0;
	std::thread a([&] { a_sold = shelf.sell(); });
	std::thread b([&] { b_sold = shelf.sell(); });
	a.join();
	b.join();
	assert(shelf.items() >= 0);
	std::printf("sold %d\n", a_sold + b_sold);
	return 0;
}
