// A cache behind a std::mutex, except for the statistics counter the
// author thought harmless: its race only changes a number that is never
// printed while threads run; the map itself is always locked.
#include <cstdio>
#include <map>
#include <mutex>
#include <string>
#include <thread>

std::mutex m;
std::map<std::string, int> cache;
int lookups;

int find(const std::string &key) {
	lookups++; // race: lookups k-witness-harmless // pattern: statistics-counter
	std::lock_guard<std::mutex> g(m);
	auto it = cache.find(key);
	if (it != cache.end())
		return it->second;
	int v = (int)key.size() * 10;
	cache.emplace(key, v);
	return v;
}

int main() {
	std::thread a([] { find("alpha"); });
	std::thread b([] { find("beta"); });
	a.join();
	b.join();
	std::lock_guard<std::mutex> g(m);
	std::printf("%zu entries\n", cache.size());
	return 0;
}
