// Static initialization: global constructors in declaration order,
// function-local statics initialized once even when four threads race to
// the first call (the guard), std::call_once, and destructors at exit in
// reverse order.
#include <cstdio>
#include <mutex>
#include <thread>
#include <vector>

struct Noisy {
	const char *name;
	explicit Noisy(const char *n) : name(n) { std::printf("construct %s\n", name); }
	~Noisy() { std::printf("destroy %s\n", name); }
};

Noisy first("first");
Noisy second("second");
int constructions;

struct Registry {
	int entries[8];
	Registry() {
		constructions++;
		for (int i = 0; i < 8; i++)
			entries[i] = i * i;
	}
};

Registry &registry() {
	static Registry r;
	return r;
}

std::once_flag once;
int onceRuns;

int main() {
	std::printf("main starts\n");
	std::vector<std::thread> ts;
	int seen[4];
	for (int i = 0; i < 4; i++)
		ts.emplace_back([i, &seen] {
			seen[i] = registry().entries[i + 1];
			std::call_once(once, [] { onceRuns++; });
		});
	for (auto &t : ts)
		t.join();
	static Noisy local("local");
	std::printf("constructions %d once %d seen %d %d %d %d\n", constructions, onceRuns, seen[0], seen[1], seen[2], seen[3]);
	return 0;
}
