// C++ classes: virtual dispatch, inheritance, constructors and destructors,
// operator overloading, new/delete, a static object with a constructor.
#include <cstdio>

struct Shape {
	virtual ~Shape() { std::printf("~Shape\n"); }
	virtual double area() const = 0;
	virtual const char *name() const { return "shape"; }
};

struct Rect : Shape {
	double w, h;
	Rect(double w, double h) : w(w), h(h) {}
	~Rect() override { std::printf("~Rect\n"); }
	double area() const override { return w * h; }
	const char *name() const override { return "rect"; }
};

struct Square : Rect {
	explicit Square(double s) : Rect(s, s) {}
	const char *name() const override { return "square"; }
};

struct Circle : Shape {
	double r;
	explicit Circle(double r) : r(r) {}
	double area() const override { return 3.0 * r * r; }
};

struct Vec {
	int x, y;
	Vec operator+(const Vec &o) const { return {x + o.x, y + o.y}; }
	bool operator==(const Vec &o) const { return x == o.x && y == o.y; }
};

struct Registry {
	int count;
	Registry() : count(100) { std::printf("Registry ready\n"); }
};
static Registry registry;

int main() {
	Shape *shapes[] = {new Rect(2, 3), new Square(4), new Circle(1)};
	double total = 0;
	for (Shape *s : shapes) {
		std::printf("%s %.1f\n", s->name(), s->area());
		total += s->area();
	}
	std::printf("total %.1f\n", total);
	for (Shape *s : shapes)
		delete s;
	Vec a{1, 2}, b{3, 4};
	Vec c = a + b;
	std::printf("vec %d %d %d\n", c.x, c.y, c == Vec{4, 6});
	int *arr = new int[5];
	for (int i = 0; i < 5; i++)
		arr[i] = i * registry.count;
	std::printf("arr %d\n", arr[4]);
	delete[] arr;
	return 0;
}
