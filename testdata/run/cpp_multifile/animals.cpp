#include <cstring>
#include "animals.h"

int Animal::made = 0;

namespace {
struct Dog : Animal {
	const char *sound() const override { return "woof"; }
};
struct Cat : Animal {
	const char *sound() const override { return "meow"; }
};
struct Cow : Animal {
	const char *sound() const override { return "moo"; }
};
} // namespace

Animal *make_animal(const char *kind) {
	if (std::strcmp(kind, "dog") == 0)
		return new Dog;
	if (std::strcmp(kind, "cat") == 0)
		return new Cat;
	if (std::strcmp(kind, "cow") == 0)
		return new Cow;
	return new Animal;
}
