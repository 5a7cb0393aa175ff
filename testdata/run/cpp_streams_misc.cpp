// std::ostringstream formatting into a string, a user type with its own
// operator<<, and std::to_string against the stream's output.
#include <iomanip>
#include <iostream>
#include <sstream>
#include <string>
#include <vector>

struct Point {
	int x, y;
};

std::ostream &operator<<(std::ostream &os, const Point &p) { return os << '(' << p.x << ", " << p.y << ')'; }

int main() {
	std::ostringstream os;
	os << "pi=" << std::setprecision(4) << 3.14159 << " hex=" << std::hex << 48879 << std::dec << " pt=" << Point{3, -4};
	std::string s = os.str();
	std::cout << s << " (" << s.size() << " chars)\n";
	std::vector<Point> pts{{1, 2}, {3, 4}, {5, 6}};
	for (const auto &p : pts)
		std::cout << p << (&p == &pts.back() ? "\n" : " ");
	std::ostringstream table;
	for (int i = 1; i <= 3; i++)
		table << std::setw(4) << i << std::setw(6) << i * i * i << '\n';
	std::cout << table.str();
	std::cout << (std::to_string(17) == (std::ostringstream() << 17).str()) << '\n';
	return 0;
}
