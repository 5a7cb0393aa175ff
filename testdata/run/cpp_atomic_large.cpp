// std::atomic of structs of 16 and 24 bytes: the compiler calls
// libatomic (__atomic_load, __atomic_compare_exchange, ...), which takes a
// lock per object. Two threads update each with compare-exchange loops,
// so no update is lost.
// ldflags: -latomic
#include <atomic>
#include <cstdio>
#include <thread>

struct Span {
	long lo, hi;
};
struct Stats {
	long count, sum, max;
};

static std::atomic<Span> span{Span{0, 0}};
static std::atomic<Stats> stats{Stats{0, 0, 0}};

static void record(int from) {
	for (int i = 0; i < 50; i++) {
		long v = from + i;
		Span s = span.load();
		while (!span.compare_exchange_weak(s, Span{s.lo + 1, s.hi + v}))
			;
		Stats old = stats.load(), next;
		do {
			next = Stats{old.count + 1, old.sum + v, old.max > v ? old.max : v};
		} while (!stats.compare_exchange_strong(old, next));
	}
}

int main() {
	std::thread a(record, 0), b(record, 1000);
	a.join();
	b.join();
	Span s = span.load();
	Stats st = stats.exchange(Stats{0, 0, 0});
	std::printf("span %ld %ld stats %ld %ld %ld reset %ld lock-free %d\n", s.lo, s.hi, st.count, st.sum, st.max,
	            stats.load().count, (int)stats.is_lock_free());
}
