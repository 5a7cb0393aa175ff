// A C++ program in two translation units sharing a class hierarchy through
// a header, with a factory function defined in the other file.
#include <cstdio>
#include "animals.h"

int main() {
	const char *kinds[] = {"dog", "cat", "cow", "fox"};
	int legs = 0;
	for (const char *k : kinds) {
		Animal *a = make_animal(k);
		std::printf("%s says %s\n", k, a->sound());
		legs += a->legs();
		delete a;
	}
	std::printf("legs %d, made %d\n", legs, Animal::made);
	return 0;
}
