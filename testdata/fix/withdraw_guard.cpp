// An account guards its balance with a member std::mutex, taken by a
// lock_guard in deposit. withdraw reads the balance into a local that it
// returns, and leaves early when the balance is short, all without the
// mutex: a guard scope would hide the local, and explicit lock and unlock
// calls around the region would leave the mutex held at the early return.
#include <cstdio>
#include <mutex>
#include <thread>

class Account {
public:
	void deposit(long v) {
		std::lock_guard<std::mutex> guard(mu_);
		balance_ += v;
	}
	long withdraw(long v) {
		long seen = balance_; // race: balance_ // fix: lock mu_ verified
		if (seen < v)
			return 0;
		balance_ = seen - v; // race: balance_
		return seen;
	}
	long balance() const { return balance_; }

private:
	std::mutex mu_;
	long balance_ = 100; // fix: atomic rejected
};

int main() {
	Account acct;
	std::thread d([&] {
		for (int i = 0; i < 3; i++)
			acct.deposit(10);
	});
	std::thread w([&] { acct.withdraw(30); });
	d.join();
	w.join();
	std::printf("balance %ld\n", acct.balance());
	return 0;
}
