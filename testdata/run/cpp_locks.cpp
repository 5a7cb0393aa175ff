// std::mutex with lock_guard, unique_lock (deferred, try_lock, unlock and
// relock, moved) and scoped_lock over two mutexes, from four threads; the
// totals are exact because every update holds its lock.
#include <cstdio>
#include <mutex>
#include <thread>
#include <vector>

std::mutex a, b;
long accountA = 1000, accountB = 1000;
int tries = 0, transfers = 0;

void transfer(int id) {
	for (int i = 0; i < 25; i++) {
		if (id % 2 == 0) {
			std::scoped_lock both(a, b);
			accountA -= 3;
			accountB += 3;
			transfers++;
		} else {
			std::unique_lock<std::mutex> la(a, std::defer_lock);
			std::unique_lock<std::mutex> lb(b, std::defer_lock);
			std::lock(la, lb);
			accountB -= 1;
			accountA += 1;
			transfers++;
		}
	}
	std::unique_lock<std::mutex> l(a);
	tries++;
	l.unlock();
	l.lock();
	std::unique_lock<std::mutex> moved = std::move(l);
	std::printf("", moved.owns_lock());
}

int main() {
	std::vector<std::thread> ts;
	for (int i = 0; i < 4; i++)
		ts.emplace_back(transfer, i);
	for (auto &t : ts)
		t.join();
	{
		std::lock_guard<std::mutex> g(a);
		std::printf("A=%ld B=%ld total=%ld transfers=%d tries=%d\n", accountA, accountB, accountA + accountB, transfers, tries);
	}
	std::unique_lock<std::mutex> l(b, std::try_to_lock);
	std::printf("try_to_lock owns: %d\n", l.owns_lock());
	return 0;
}
