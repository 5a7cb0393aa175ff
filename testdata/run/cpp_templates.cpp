// C++ templates: function and class templates, specialization, a template
// container with a static member and a function-local static.
#include <cstdio>

template <typename T>
T maxOf(T a, T b) { return a > b ? a : b; }

template <typename T, int N>
struct Ring {
	T items[N];
	int head = 0, size = 0;
	void push(T v) {
		items[(head + size) % N] = v;
		if (size < N)
			size++;
		else
			head = (head + 1) % N;
	}
	T sum() const {
		T s{};
		for (int i = 0; i < size; i++)
			s += items[(head + i) % N];
		return s;
	}
};

template <typename T>
struct Describe {
	static const char *name() { return "other"; }
};
template <>
struct Describe<int> {
	static const char *name() { return "int"; }
};

static int counter() {
	static int calls = 0;
	return ++calls;
}

template <typename F>
int applyTwice(F f, int x) { return f(f(x)); }

int main() {
	std::printf("%d %.2f %c\n", maxOf(3, 7), maxOf(2.5, 1.5), maxOf('a', 'z'));
	Ring<int, 4> r;
	for (int i = 1; i <= 10; i++)
		r.push(i);
	std::printf("ring %d size %d\n", r.sum(), r.size);
	Ring<double, 3> d;
	d.push(0.5);
	d.push(0.25);
	std::printf("dring %.2f\n", d.sum());
	std::printf("%s %s\n", Describe<int>::name(), Describe<double>::name());
	counter();
	counter();
	std::printf("calls %d\n", counter());
	std::printf("lambda %d\n", applyTwice([](int v) { return v * 3; }, 2));
	return 0;
}
