// A work pool counts pending jobs under the pool's mutex, reached
// through a pointer; the cancel path decrements without it.
#include <cstdio>
#include <mutex>
#include <thread>

struct Pool {
	std::mutex mu;
	int pending = 0; // fix: atomic rejected // fix: atomic verified
};

static void submit(Pool *p, int n) {
	for (int i = 0; i < n; i++) {
		std::unique_lock<std::mutex> lk(p->mu);
		p->pending++;
	}
}

static void cancel(Pool &pool) {
	int now = pool.pending; // fix: lock pool.mu verified
	pool.pending = now > 0 ? now - 1 : 0;
}

int main() {
	Pool pool;
	pool.pending = 2;
	std::thread s([&] { submit(&pool, 3); });
	std::thread c([&] { cancel(pool); });
	s.join();
	c.join();
	std::printf("pending %d\n", pool.pending);
	return 0;
}
