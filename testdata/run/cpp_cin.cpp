// stdin: Alice 30 1.5\nBob 25 2.25\nthe rest of a line\nlast line without newline
// Reading std::cin: formatted extraction of words and numbers, getline
// after ignore, a char array with a width, and end of input.
#include <iomanip>
#include <iostream>
#include <string>

int main() {
	std::string name;
	int age;
	double score, total = 0;
	int people = 0;
	while (people < 2 && std::cin >> name >> age >> score) {
		std::cout << name << " is " << age << " (" << score << ")\n";
		total += score;
		people++;
	}
	std::cin.ignore(100, '\n');
	std::string line;
	std::getline(std::cin, line);
	std::cout << "line: [" << line << "] total " << total << '\n';
	char word[5];
	std::cin >> std::setw(5) >> word;
	std::cout << "word: " << word << '\n';
	std::getline(std::cin, line);
	std::cout << "rest: [" << line << "] eof " << std::cin.eof() << '\n';
	int more;
	std::cout << "read past end: " << bool(std::cin >> more) << '\n';
	return 0;
}
