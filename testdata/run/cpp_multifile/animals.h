#ifndef ANIMALS_H
#define ANIMALS_H
struct Animal {
	static int made;
	Animal() { made++; }
	virtual ~Animal() {}
	virtual const char *sound() const { return "..."; }
	virtual int legs() const { return 4; }
};
Animal *make_animal(const char *kind);
#endif
