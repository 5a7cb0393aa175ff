// std::string: construction, append and +, find/rfind/substr/replace/erase/
// insert, compare, iteration, c_str, numeric conversions both ways, and a
// string long enough to leave the small-string buffer.
#include <cstdio>
#include <string>

int main() {
	std::string s = "hello";
	s += ", world";
	s.append(3, '!');
	std::string t = s + " and " + std::string("more");
	std::printf("%s (%zu)\n", t.c_str(), t.size());
	std::printf("find world %zu, rfind o %zu, npos %d\n", s.find("world"), s.rfind('o'), s.find("zzz") == std::string::npos);
	std::string sub = s.substr(7, 5);
	s.replace(0, 5, "goodbye");
	s.erase(s.size() - 2);
	s.insert(0, ">> ");
	std::printf("sub=%s s=%s\n", sub.c_str(), s.c_str());
	std::printf("compare %d %d %d\n", std::string("abc").compare("abd") < 0, std::string("b") > std::string("a"),
	            sub == "world");
	std::string longer;
	for (int i = 0; i < 40; i++)
		longer += (char)('a' + i % 26);
	std::printf("long %s cap>=size %d\n", longer.c_str(), longer.capacity() >= longer.size());
	int upper = 0;
	for (char c : longer)
		upper += c >= 'n';
	std::printf("upper half letters %d\n", upper);
	std::printf("%s %s %s\n", std::to_string(-123).c_str(), std::to_string(4000000000ULL).c_str(), std::to_string(2.5).c_str());
	std::printf("%d %ld %.2f\n", std::stoi("  42xyz"), std::stol("-9000000000"), std::stod("3.25"));
	std::string moved = std::move(longer);
	std::printf("moved %zu, from empty %d\n", moved.size(), longer.empty());
	s.clear();
	s.resize(3, 'z');
	std::printf("resized %s back %c front %c\n", s.c_str(), s.back(), s.front());
	return 0;
}
