// Double-checked initialization without an atomic: a thread may see the
// pointer set before the object it points to is built, and use a table
// that is not filled yet. The mutex orders the writers only. Each thread
// may be the one that initializes, so each race on table comes twice.
// When main builds the table, the thread that reads the pointer before
// main has set its size stores a size of 0, and main's assertion fails
// (table, spec-violated), as the race on size does. When the thread
// builds it, main reads only the pointer early: it reads the size after
// joining the thread, which set it (table2, k-witness-harmless).
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
	Table *t = table; // race: table spec-violated // race: table2 k-witness-harmless
	if (!t) {
		std::lock_guard<std::mutex> g(initLock);
		t = table;
		if (!t) {
			t = new Table;
			table = t; // race: table spec-violated // race: table2 k-witness-harmless
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
