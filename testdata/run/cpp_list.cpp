// std::list as an LRU cache and a work list use it: push and pop at both
// ends, insert and erase in the middle, splice of one node, of a range and
// of a whole list (to the front, to itself), reverse, sort (which merges
// and swaps lists), unique, remove_if, swap of an empty and a full list;
// and shared_ptr's atomic operations (atomic_load, atomic_store,
// atomic_exchange, atomic_compare_exchange_strong) from two threads, which
// the library serializes by the shared_ptr's address. The output must be
// native's.
#include <atomic>
#include <cstdio>
#include <list>
#include <memory>
#include <string>
#include <thread>

static void show(const char *what, const std::list<int> &l) {
	std::printf("%s (%zu):", what, l.size());
	for (int x : l)
		std::printf(" %d", x);
	std::printf("\n");
}

int main() {
	std::list<int> a{5, 3, 8};
	a.push_front(1);
	a.push_back(9);
	auto it = a.begin();
	std::advance(it, 2);
	a.insert(it, 7);
	a.erase(std::prev(a.end()));
	a.pop_front();
	show("edited", a);

	std::list<int> b{40, 10, 30, 20};
	a.splice(a.begin(), b, std::next(b.begin())); // one node to the front
	a.splice(a.end(), b, b.begin(), std::next(b.begin(), 2)); // a range to the end
	show("spliced a", a);
	show("spliced b", b);
	a.splice(a.begin(), a, std::prev(a.end())); // within itself: the last node to the front
	show("rotated", a);
	a.reverse();
	show("reversed", a);
	a.sort();
	show("sorted", a);
	a.sort([](int x, int y) { return x > y; });
	show("sorted down", a);
	a.push_back(3);
	a.push_back(3);
	a.unique();
	a.remove_if([](int x) { return x % 2 == 0; });
	show("odd, unique", a);
	std::list<int> empty;
	a.swap(empty);
	show("swapped a", a);
	show("swapped empty", empty);
	a.splice(a.begin(), empty); // a whole list
	show("whole", a);
	std::list<int> m1{1, 4, 9}, m2{2, 3, 10};
	m1.merge(m2);
	show("merged", m1);

	// An LRU of three: a hit moves the key to the front.
	std::list<std::string> lru;
	for (const char *k : {"a", "b", "c", "a", "d", "b"}) {
		bool hit = false;
		for (auto i = lru.begin(); i != lru.end(); ++i)
			if (*i == k) {
				lru.splice(lru.begin(), lru, i);
				hit = true;
				break;
			}
		if (!hit) {
			lru.emplace_front(k);
			if (lru.size() > 3)
				lru.pop_back();
		}
	}
	for (auto &k : lru)
		std::printf("%s ", k.c_str());
	std::printf("\n");

	auto config = std::make_shared<int>(1);
	std::thread writer([&config] {
		for (int i = 2; i <= 4; i++)
			std::atomic_store(&config, std::make_shared<int>(i));
	});
	int seen = 0;
	for (int i = 0; i < 3; i++)
		seen = std::max(seen, *std::atomic_load(&config));
	writer.join();
	auto old = std::atomic_exchange(&config, std::make_shared<int>(10));
	auto expected = std::atomic_load(&config);
	bool swapped = std::atomic_compare_exchange_strong(&config, &expected, std::make_shared<int>(11));
	std::printf("config %d, old %d, swapped %d, seen at most 4: %d\n", *config, *old, swapped, seen <= 4);
	return 0;
}
