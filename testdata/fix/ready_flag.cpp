// A loader sets its done_ flag after filling in the table; the reader
// spins on it through a member function. Making done_ a std::atomic<bool>
// stored with release and loaded with acquire orders the table's reads
// after its writes.
#include <cstdio>
#include <thread>

class Loader {
public:
	void load() {
		size_ = 3;    // race: size_ single-ordering
		done_ = true; // race: done_ single-ordering
	}
	void wait() const {
		while (!done_) // race: done_ single-ordering
			std::this_thread::yield();
	}
	int size() const { return size_; } // race: size_ single-ordering

private:
	volatile bool done_ = false; // fix: atomic verified
	int size_ = 0;
};

int main() {
	Loader l;
	std::thread t([&] { l.load(); });
	l.wait();
	std::printf("size %d\n", l.size());
	t.join();
	return 0;
}
