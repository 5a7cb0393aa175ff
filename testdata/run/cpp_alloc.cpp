// C++ allocation: class-specific operator new/delete, nothrow new, arrays of
// objects with destructors, and a small RAII buffer with move semantics.
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <new>
#include <utility>

struct Tracked {
	static int allocs, frees;
	int v;
	explicit Tracked(int v) : v(v) {}
	static void *operator new(std::size_t n) {
		allocs++;
		return std::malloc(n);
	}
	static void operator delete(void *p) {
		frees++;
		std::free(p);
	}
};
int Tracked::allocs = 0, Tracked::frees = 0;

class Buffer {
	char *data_;
	std::size_t size_;

public:
	explicit Buffer(const char *s) : data_(new char[std::strlen(s) + 1]), size_(std::strlen(s)) {
		std::memcpy(data_, s, size_ + 1);
	}
	Buffer(Buffer &&o) noexcept : data_(o.data_), size_(o.size_) {
		o.data_ = nullptr;
		o.size_ = 0;
	}
	~Buffer() { delete[] data_; }
	const char *c_str() const { return data_ ? data_ : "(moved)"; }
	std::size_t size() const { return size_; }
};

int main() {
	Tracked *a = new Tracked(1);
	Tracked *b = new Tracked(2);
	std::printf("sum %d allocs %d\n", a->v + b->v, Tracked::allocs);
	delete a;
	delete b;
	std::printf("frees %d\n", Tracked::frees);
	int *maybe = new (std::nothrow) int(42);
	std::printf("nothrow %d\n", maybe ? *maybe : -1);
	delete maybe;
	Buffer x("hello, buffer");
	Buffer y(std::move(x));
	std::printf("%s / %s (%zu)\n", x.c_str(), y.c_str(), y.size());
	return 0;
}
