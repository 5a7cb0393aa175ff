// An account guards its balance with a member std::mutex, taken by a
// lock_guard in deposit; charge reads the balance, computes a fee and
// writes it back without it.
#include <cstdio>
#include <mutex>
#include <thread>

class Account {
public:
	void deposit(long v) {
		std::lock_guard<std::mutex> guard(mu_);
		balance_ += v;
	}
	void charge() {
		long seen = balance_; // race: balance_ // fix: lock mu_ verified // fix: atomic verified
		long fee = seen > 50 ? 5 : 0;
		balance_ = seen - fee; // race: balance_
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
	std::thread c([&] { acct.charge(); });
	d.join();
	c.join();
	std::printf("balance %ld\n", acct.balance());
	return 0;
}
