// A bounded queue between two producers and two consumers with
// std::condition_variable: wait with a predicate, notify_one and
// notify_all at shutdown. Consumers sum what they take; the sum is exact.
#include <condition_variable>
#include <cstdio>
#include <deque>
#include <mutex>
#include <thread>

std::mutex m;
std::condition_variable notEmpty, notFull;
std::deque<int> q;
bool done = false;
long consumed[2];

void produce(int base) {
	for (int i = 0; i < 50; i++) {
		std::unique_lock<std::mutex> l(m);
		notFull.wait(l, [] { return q.size() < 4; });
		q.push_back(base + i);
		notEmpty.notify_one();
	}
}

void consume(int id) {
	for (;;) {
		std::unique_lock<std::mutex> l(m);
		notEmpty.wait(l, [] { return !q.empty() || done; });
		if (q.empty())
			return;
		consumed[id] += q.front();
		q.pop_front();
		notFull.notify_one();
	}
}

int main() {
	std::thread c0(consume, 0), c1(consume, 1);
	std::thread p0(produce, 0), p1(produce, 1000);
	p0.join();
	p1.join();
	{
		std::lock_guard<std::mutex> g(m);
		done = true;
	}
	notEmpty.notify_all();
	c0.join();
	c1.join();
	std::printf("total consumed: %ld\n", consumed[0] + consumed[1]);
	return 0;
}
