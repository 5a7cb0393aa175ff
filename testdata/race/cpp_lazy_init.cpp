// Double-checked initialization without an atomic: a thread may see the
// pointer set before the object it points to is built, and use a table
// that is not filled yet. The mutex orders the writers only. Each thread
// may be the one that initializes, so each race on table comes twice.
// The harm shows through the race on size (spec-violated); the races on
// table itself are called k-witness-harmless because the post-race
// schedules tried let the writer finish building the table before the
// reader uses it. Deeper post-race exploration (issue 15) should find the
// failing order for them too.
#include <cassert>
#include <cstdio>
#include <mutex>
#include <thread>

struct Table {
	int size;
	int slots[4];
};

Table *table;
std::mutex initLock;

Table *get() {
	Table *t = table; // race: table k-witness-harmless // race: table2 k-witness-harmless
	if (!t) {
		std::lock_guard<std::mutex> g(initLock);
		t = table;
		if (!t) {
			t = new Table;
			table = t; // race: table k-witness-harmless // race: table2 k-witness-harmless
			t->size = 4; // race: size spec-violated
		}
	}
	return t;
}

int main() {
	int seen = 0;
	std::thread a([&seen] { seen = get()->size; }); // race: size spec-violated
	Table *mine = get();
	a.join();
	assert(seen == 4 && mine->size == 4);
	std::printf("size %d\n", mine->size);
	return 0;
}
