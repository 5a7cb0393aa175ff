// <vector>, <map>, <set> and <algorithm>: growth, sort with a comparator,
// accumulate, unique/erase, binary_search, map insertion and erasure in
// every order (the red-black tree rebalancing), lower_bound, multimap and
// set iteration in order, and a map of vectors.
#include <algorithm>
#include <cstdio>
#include <map>
#include <numeric>
#include <set>
#include <string>
#include <vector>

int main() {
	std::vector<int> v;
	for (int i = 0; i < 20; i++)
		v.push_back((i * 7) % 13);
	std::sort(v.begin(), v.end(), [](int a, int b) { return a > b; });
	long sum = std::accumulate(v.begin(), v.end(), 0L);
	v.erase(std::unique(v.begin(), v.end()), v.end());
	std::sort(v.begin(), v.end());
	std::printf("sum %ld unique %zu has 5: %d has 13: %d\n", sum, v.size(), std::binary_search(v.begin(), v.end(), 5),
	            std::binary_search(v.begin(), v.end(), 13));

	std::map<int, std::string> m;
	for (int i = 0; i < 64; i++) {
		int k = (i * 37) % 64;
		m[k] = "v" + std::to_string(k);
	}
	for (int i = 0; i < 64; i += 3)
		m.erase((i * 11) % 64);
	int n = 0;
	long keys = 0;
	int prev = -1;
	bool ordered = true;
	for (auto &kv : m) {
		ordered = ordered && kv.first > prev;
		prev = kv.first;
		keys += kv.first;
		n++;
	}
	auto lb = m.lower_bound(20);
	std::printf("map size %d keys %ld ordered %d lower_bound(20) %d=%s\n", n, keys, ordered, lb->first, lb->second.c_str());
	for (auto it = m.rbegin(); it != m.rend() && it->first > 55; ++it)
		std::printf(" %d", it->first);
	std::printf("\n");

	std::multimap<std::string, int> mm{{"b", 2}, {"a", 1}, {"b", 3}, {"c", 4}};
	std::printf("count b %zu:", mm.count("b"));
	for (auto &kv : mm)
		std::printf(" %s%d", kv.first.c_str(), kv.second);
	std::printf("\n");

	std::set<std::string> words{"pear", "apple", "fig", "apple", "kiwi"};
	words.erase("fig");
	for (const auto &w : words)
		std::printf("%s ", w.c_str());
	std::printf("(%zu)\n", words.size());

	std::map<std::string, std::vector<int>> groups;
	for (int i = 0; i < 10; i++)
		groups[i % 3 == 0 ? "three" : "other"].push_back(i);
	for (auto &g : groups)
		std::printf("%s: %zu first %d last %d\n", g.first.c_str(), g.second.size(), g.second.front(), g.second.back());
	return 0;
}
