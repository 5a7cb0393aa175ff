// std::unordered_map and std::unordered_set: iteration order follows the
// bucket counts and the string hash, so it must match libstdc++'s exactly;
// growth, rehash, reserve, erase and the hash values themselves.
#include <cstdio>
#include <string>
#include <unordered_map>
#include <unordered_set>

int main() {
	std::unordered_map<std::string, int> m;
	for (int i = 0; i < 60; i++) {
		m["key" + std::to_string(i * 7)] = i;
		if (i == 0 || i == 11 || i == 12 || i == 24 || i == 59)
			std::printf("after %d inserts: %zu buckets\n", i + 1, m.bucket_count());
	}
	for (auto &kv : m)
		std::printf("%s=%d ", kv.first.c_str(), kv.second);
	std::printf("\n");
	for (int i = 0; i < 60; i += 2)
		m.erase("key" + std::to_string(i * 7));
	m.rehash(200);
	std::printf("after erase and rehash: %zu elements, %zu buckets\n", m.size(), m.bucket_count());
	for (auto &kv : m)
		std::printf("%s ", kv.first.c_str());
	std::printf("\n");
	std::unordered_set<int> s;
	s.reserve(100);
	for (int x : {42, 7, 19, 1000, 3, 77, 256, 1})
		s.insert(x);
	std::printf("set buckets %zu:", s.bucket_count());
	for (int x : s)
		std::printf(" %d", x);
	std::printf("\n");
	std::hash<std::string> h;
	std::printf("hashes %zx %zx %zx\n", h(""), h("a"), h("the quick brown fox jumps"));
	std::printf("double hash %zx\n", std::hash<double>{}(3.5));
	return 0;
}
