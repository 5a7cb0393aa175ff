// std::cout and std::cerr formatting as libstdc++ does it: integers in
// every base with showbase/uppercase, width/fill/adjustment, floating point
// in every floatfield with precision and showpoint/showpos, bool, chars,
// strings, endl and flush, and interleaving with printf.
#include <cstdio>
#include <iomanip>
#include <iostream>
#include <string>

int main() {
	std::cout << "int " << 42 << ' ' << -7 << ' ' << 0 << std::endl;
	std::cout << std::hex << 255 << ' ' << std::showbase << 255 << ' ' << std::uppercase << 255 << std::nouppercase
	          << ' ' << std::oct << 8 << ' ' << std::noshowbase << 8 << std::dec << '\n';
	std::cout << "long " << 1234567890123LL << " unsigned " << 4000000000u << " short " << (short)-3 << '\n';
	std::cout << '[' << std::setw(6) << 42 << "][" << std::left << std::setw(6) << 42 << "][" << std::right
	          << std::setfill('*') << std::setw(6) << -42 << "][" << std::internal << std::setw(6) << -42 << "]\n"
	          << std::setfill(' ');
	double x = 3.14159265358979, big = 12345678.9, tiny = 0.000012345;
	std::cout << x << ' ' << big << ' ' << tiny << ' ' << 1.0 << ' ' << 100.0 << '\n';
	std::cout << std::setprecision(3) << x << ' ' << big << '\n';
	std::cout << std::fixed << x << ' ' << big << ' ' << std::setprecision(0) << 2.5 << '\n';
	std::cout << std::scientific << std::setprecision(4) << big << ' ' << std::uppercase << tiny << std::nouppercase << '\n';
	std::cout << std::defaultfloat << std::setprecision(6) << std::showpoint << 2.0 << ' ' << std::noshowpoint << 2.0
	          << ' ' << std::showpos << 5 << ' ' << 1.5 << std::noshowpos << '\n';
	std::cout << true << ' ' << std::boolalpha << true << ' ' << false << std::noboolalpha << '\n';
	std::cout << 'c' << ' ' << (unsigned char)'u' << ' ' << (signed char)'s' << ' ' << std::string("str") << '\n';
	std::cout << 1.0f / 3 << ' ' << 2.0L / 3 << ' ' << -0.0 << ' ' << 1e300 * 10 << '\n';
	std::printf("printf in between\n");
	std::cout << "after printf" << std::flush << '\n';
	std::cerr << "to stderr " << 12 << std::endl;
	std::clog << "clog too" << '\n';
	std::cout.width(8);
	std::cout << "right" << '|' << std::endl;
	std::cout.put('p').write("wxyz", 2) << '\n';
	return 3;
}
