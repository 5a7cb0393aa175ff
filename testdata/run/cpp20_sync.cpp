// cflags: -std=c++20
/* C++20's synchronization, which libstdc++ builds on the futex system
 * call (syscall(SYS_futex), a model since 2026-11-26; it stopped the run
 * before): std::counting_semaphore, std::latch, std::barrier, std::jthread
 * with a stop token, and atomic wait and notify, including a timed
 * try_acquire_for that times out. Prints the same natively and under
 * augur.
 *
 * `augur analyze` finds a deadlock in it, and it is libstdc++ 12's: the
 * semaphore's acquire (__atomic_wait_address_bare) loads the counter, then
 * spins trying to take it, then sleeps on the futex while the counter
 * still holds the value loaded before the spin. When the counter was 1,
 * another thread took it during the spin and gave it back (its release,
 * from 0, woke nobody: no one slept yet), the sleep begins on a counter of
 * 1 and nothing wakes it once the other threads are done.
 * C code of the same algorithm deadlocks the same way under augur,
 * and one that loads the counter just before sleeping does not. */
#include <atomic>
#include <barrier>
#include <chrono>
#include <cstdio>
#include <latch>
#include <semaphore>
#include <thread>
#include <vector>

int main() {
	constexpr int workers = 3;
	std::counting_semaphore<workers> slots(1);
	std::latch done(workers);
	std::barrier phase(workers);
	int total = 0; // guarded by slots, a binary semaphore here
	std::atomic<int> phases{0};
	{
		std::vector<std::jthread> ts;
		for (int i = 1; i <= workers; i++)
			ts.emplace_back([&, i] {
				for (int k = 0; k < 50; k++) {
					slots.acquire();
					total += i;
					slots.release();
				}
				phase.arrive_and_wait();
				phases.fetch_add(1);
				done.count_down();
			});
		done.wait();
	}
	std::printf("total %d phases %d\n", total, phases.load());

	std::atomic<int> ready{0};
	std::jthread waiter([&](std::stop_token st) {
		ready.wait(0); // until the main thread stores 1 and notifies
		while (!st.stop_requested())
			std::this_thread::yield();
		ready.store(2);
		ready.notify_all();
	});
	ready.store(1);
	ready.notify_one();
	waiter.request_stop();
	ready.wait(1);
	std::printf("ready %d\n", ready.load());

	std::binary_semaphore none(0);
	bool got = none.try_acquire_for(std::chrono::milliseconds(5));
	std::printf("try_acquire_for on an empty semaphore: %s\n", got ? "acquired" : "timed out");
	return 0;
}
