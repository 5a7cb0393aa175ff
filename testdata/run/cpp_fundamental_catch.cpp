// Exceptions of fundamental and pointer types, and typeid of fundamental
// types, as a parser's error paths use them: an error code thrown as an
// int or a long, a message thrown as a string literal, a pointer to the
// offending node, nullptr. Each catch clause must take exactly the types
// the language says: a long is not caught as an int, a char not as a
// signed char, a const pointer not by a handler that drops the const, an
// int** not as a const int**, a Derived** not as a Base** nor as a
// Base *const *; a Derived* is caught as a Base*, any object pointer as a
// void*, nullptr as any pointer. typeid(int).name() and the rest are the
// mangled names.
#include <cstdio>
#include <typeinfo>

struct Node { virtual ~Node() {} int line = 3; };
struct Call : Node { int args = 2; };

static Call call;
static Call *callp = &call;
static int code = 5;
static int *codep = &code;

static void fail(int k) {
	switch (k) {
	case 0: throw 404L;
	case 1: throw "unexpected token";
	case 2: throw &call;
	case 3: throw (const int *)&code;
	case 4: throw &codep;
	case 5: throw &callp;
	case 6: throw nullptr;
	case 7: throw 'x';
	case 8: throw true;
	case 9: throw 2.5f;
	case 10: throw 7u;
	case 11: throw (unsigned char)200;
	}
}

static void handle(int k) {
	try {
		fail(k);
	} catch (int v) {
		std::printf("%d: int %d\n", k, v);
	} catch (long v) {
		std::printf("%d: long %ld\n", k, v);
	} catch (signed char v) {
		std::printf("%d: signed char %d\n", k, v);
	} catch (char v) {
		std::printf("%d: char %c\n", k, v);
	} catch (bool v) {
		std::printf("%d: bool %d\n", k, v);
	} catch (double v) {
		std::printf("%d: double %g\n", k, v);
	} catch (float v) {
		std::printf("%d: float %g\n", k, v);
	} catch (const char *s) {
		std::printf("%d: message %s\n", k, s);
	} catch (int *p) {
		std::printf("%d: int* %d\n", k, p ? *p : -1);
	} catch (const int **) {
		std::printf("%d: const int**\n", k);
	} catch (const int *const *pp) {
		std::printf("%d: const int* const* %d\n", k, **pp);
	} catch (const int *p) {
		std::printf("%d: const int* %d\n", k, *p);
	} catch (Node **) {
		std::printf("%d: Node**\n", k);
	} catch (Node *n) {
		std::printf("%d: Node* line %d\n", k, n->line);
	} catch (void *v) {
		std::printf("%d: void* %d\n", k, v == (void *)&callp);
	} catch (...) {
		std::printf("%d: something else\n", k);
	}
}

int main() {
	for (int k = 0; k < 12; k++)
		handle(k);
	try {
		throw &callp; // a base class only one level down: a Call** is no Node *const *
	} catch (Node *const *) {
		std::printf("Call** as Node *const *\n");
	} catch (const Call *const *pp) {
		std::printf("Call** as const Call *const * %d\n", (*pp)->args);
	}
	try {
		throw nullptr;
	} catch (Node *n) {
		std::printf("nullptr as Node* %d\n", n == nullptr);
	}
	std::printf("%s %s %s %s %s %s\n", typeid(int).name(), typeid(unsigned long long).name(),
	            typeid(const char *).name(), typeid(double *).name(), typeid(char32_t).name(),
	            typeid(decltype(nullptr)).name());
	std::printf("%d %d %d\n", typeid(int) == typeid(int), typeid(int) == typeid(long),
	            typeid(int *) == typeid(const int *));
	std::printf("%d\n", typeid(long).hash_code() == typeid(long).hash_code());
	return 0;
}
