// C++ object lifetimes: static objects destroyed at exit in reverse order,
// function-local statics initialized once, arrays of objects, placement new,
// multiple inheritance with this-adjustment.
#include <cstdio>
#include <new>

struct Noisy {
	const char *name;
	explicit Noisy(const char *n) : name(n) { std::printf("construct %s\n", name); }
	~Noisy() { std::printf("destroy %s\n", name); }
};

static Noisy first("global-1");
static Noisy second("global-2");

static Noisy &lazy() {
	static Noisy instance("local-static");
	return instance;
}

struct Counter {
	static int live;
	int id;
	Counter() : id(++live) {}
	~Counter() { --live; }
};
int Counter::live = 0;

struct A {
	int a = 1;
	virtual int who() const { return a; }
	virtual ~A() {}
};
struct B {
	int b = 20;
	virtual int other() const { return b; }
	virtual ~B() {}
};
struct C : A, B {
	int c = 300;
	int who() const override { return a + c; }
	int other() const override { return b + c; }
};

int main() {
	std::printf("main starts\n");
	lazy();
	lazy();
	Counter *cs = new Counter[4];
	std::printf("live %d last id %d\n", Counter::live, cs[3].id);
	delete[] cs;
	std::printf("live after delete[] %d\n", Counter::live);
	alignas(Noisy) unsigned char buf[sizeof(Noisy)];
	Noisy *p = new (buf) Noisy("placed");
	p->~Noisy();
	C obj;
	A *pa = &obj;
	B *pb = &obj;
	std::printf("who %d other %d same object %d\n", pa->who(), pb->other(),
	            static_cast<void *>(static_cast<C *>(pb)) == static_cast<void *>(&obj));
	std::printf("main returns\n");
	return 0;
}
