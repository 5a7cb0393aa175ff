// std::random_device as programs seed with it: the sources libstdc++
// accepts, entropy(), the range, and a token it refuses. The values drawn
// are not printed (they differ from run to run natively); what the
// program does with them is, in a form that does not depend on them.
#include <algorithm>
#include <cstdio>
#include <numeric>
#include <random>
#include <vector>

int main() {
	const char *tokens[] = {"default", "/dev/urandom", "rdrand", "getentropy", "mt19937", "bogus"};
	for (const char *t : tokens) {
		try {
			std::random_device d(t);
			unsigned v = d();
			std::printf("%s: entropy %g, draw in range %d\n", t, d.entropy(), v <= std::random_device::max());
		} catch (const std::exception &e) {
			std::printf("%s: %s\n", t, e.what());
		}
	}
	std::random_device rd;
	std::mt19937 gen(rd());
	std::vector<int> v(20);
	std::iota(v.begin(), v.end(), 1);
	std::shuffle(v.begin(), v.end(), gen);
	std::uniform_int_distribution<int> pick(1, 6);
	int die = pick(gen);
	std::sort(v.begin(), v.end());
	std::printf("sum %d, sorted again %d, die in range %d\n", std::accumulate(v.begin(), v.end(), 0),
	            std::is_sorted(v.begin(), v.end()), die >= 1 && die <= 6);
	return 0;
}
