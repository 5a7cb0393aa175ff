// Run-time type information: dynamic_cast down and across a hierarchy with
// single, multiple and virtual inheritance, failed casts to null, and
// typeid comparisons.
#include <cstdio>
#include <typeinfo>

struct Shape {
	virtual ~Shape() {}
	virtual const char *name() const { return "shape"; }
};
struct Circle : Shape {
	const char *name() const override { return "circle"; }
};
struct Square : Shape {
	const char *name() const override { return "square"; }
};
struct Printable {
	virtual ~Printable() {}
	int copies = 2;
};
struct Label : Square, Printable {
	const char *name() const override { return "label"; }
};
struct Base {
	virtual ~Base() {}
	int b = 1;
};
struct Left : virtual Base {
	int l = 2;
};
struct Right : virtual Base {
	int r = 3;
};
struct Diamond : Left, Right {
	int d = 4;
};

int main() {
	Shape *shapes[] = {new Circle, new Square, new Label};
	for (Shape *s : shapes) {
		Circle *c = dynamic_cast<Circle *>(s);
		Square *q = dynamic_cast<Square *>(s);
		Printable *p = dynamic_cast<Printable *>(s);
		std::printf("%s: circle %d square %d printable %d copies %d same type as Label %d\n", s->name(), c != nullptr,
		            q != nullptr, p != nullptr, p ? p->copies : 0, typeid(*s) == typeid(Label));
	}
	Printable *pr = new Label;
	Shape *back = dynamic_cast<Shape *>(pr);
	std::printf("cross cast back: %s\n", back ? back->name() : "null");
	Diamond dd;
	Base *b = &dd;
	Right *r = dynamic_cast<Right *>(b);
	Diamond *d = dynamic_cast<Diamond *>(b);
	std::printf("virtual base: r=%d d=%d l=%d b=%d\n", r ? r->r : -1, d ? d->d : -1, d ? d->l : -1, b->b);
	for (Shape *s : shapes)
		delete s;
	delete pr;
	return 0;
}
