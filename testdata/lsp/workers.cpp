// Two std::threads count requests through a helper of the program's own.
// The helper's caller, the lambda, is worth a note in the editor; the
// frames of libstdc++'s headers between the thread and the lambda are not.
#include <cstdio>
#include <thread>

static int served;

static void serve_one(int id) {
	served += id; // race: served output-differs
}

int main() {
	auto worker = [](int id) {
		for (int i = 0; i < 3; i++)
			serve_one(id);
	};
	std::thread a(worker, 1), b(worker, 2);
	a.join();
	b.join();
	std::printf("%d\n", served);
	return 0;
}
