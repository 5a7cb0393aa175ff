// std::atomic<T> with every memory order: relaxed counters, release/acquire
// publication, compare_exchange loops, exchange, the bitwise fetch
// operations, atomic<bool> as a spin lock, atomic pointers and fences.
#include <atomic>
#include <cstdio>
#include <thread>
#include <vector>

std::atomic<long> counter{0};
std::atomic<int> maxSeen{0};
std::atomic<bool> lock{false};
std::atomic<unsigned> bits{0};
std::atomic<int *> published{nullptr};
int payload;
int guarded;

void work(int id) {
	for (int i = 0; i < 100; i++)
		counter.fetch_add(1, std::memory_order_relaxed);
	int v = id * 10, cur = maxSeen.load(std::memory_order_relaxed);
	while (cur < v && !maxSeen.compare_exchange_weak(cur, v, std::memory_order_acq_rel, std::memory_order_relaxed)) {
	}
	bits.fetch_or(1u << id, std::memory_order_seq_cst);
	while (lock.exchange(true, std::memory_order_acquire)) {
		std::this_thread::yield();
	}
	guarded += id;
	lock.store(false, std::memory_order_release);
}

int main() {
	std::thread reader([] {
		int *p;
		while (!(p = published.load(std::memory_order_acquire)))
			std::this_thread::yield();
		std::printf("reader sees %d\n", *p);
	});
	payload = 99;
	published.store(&payload, std::memory_order_release);
	reader.join();

	std::vector<std::thread> ts;
	for (int i = 0; i < 4; i++)
		ts.emplace_back(work, i);
	for (auto &t : ts)
		t.join();
	std::atomic_thread_fence(std::memory_order_seq_cst);
	bits.fetch_and(~1u, std::memory_order_relaxed);
	bits.fetch_xor(0x100, std::memory_order_relaxed);
	long old = counter.fetch_sub(50, std::memory_order_consume);
	int expected = 30;
	bool swapped = maxSeen.compare_exchange_strong(expected, -1);
	std::printf("counter %ld -> %ld, max swapped %d -> %d, bits %#x, guarded %d, lock-free %d\n", old, counter.load(), swapped,
	            maxSeen.load(), bits.load(), guarded, (int)std::atomic<long>::is_always_lock_free);
	std::atomic<long long> wide{1LL << 40};
	wide += 5;
	wide--;
	std::printf("wide %lld\n", wide.load(std::memory_order_seq_cst));
	return 0;
}
