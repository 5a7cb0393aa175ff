// std::get_time (the time_get<char> facet) and the string streams' C++20
// members (str() of an rvalue and of an lvalue, view(), a constructor that
// moves its string in), as a C++20 program reading dated records has them:
// each format fills in what it can (the weekday and day of the year from a
// date, the date from a week number and a weekday, a 12-hour clock's
// afternoon, a century), and a field that does not parse fails the stream.
// cflags: -std=c++20
#include <ctime>
#include <iomanip>
#include <iostream>
#include <sstream>
#include <string>
#include <utility>

static void show(const char *text, const char *format) {
	std::tm t{};
	t.tm_year = 99, t.tm_mon = 5, t.tm_mday = 15; // what a format leaves alone stays
	std::istringstream in(std::string{text});
	in >> std::get_time(&t, format);
	std::ostringstream out;
	out << format << " <- \"" << text << "\": ";
	if (in.fail())
		out << "failed ";
	out << std::put_time(&t, "%Y-%m-%d %H:%M:%S wday %w yday %j");
	std::cout << std::move(out).str() << "\n";
}

int main() {
	show("2024-03-05 10:11:12", "%Y-%m-%d %H:%M:%S");
	show("07/04/76", "%D");
	show("Tue Feb 29 23:59:01 2028", "%c");
	show("03:15:00 PM", "%I:%M:%S %p");
	show("12:00 AM", "%I:%M %p");
	show("19 45", "%C %y");
	show("20", "%C");
	show("2023 060", "%Y %j");
	show("2024 10 3", "%Y %U %w");
	show("2024 10 0", "%Y %W %w");
	show("2021 0 6", "%Y %U %w");
	show("March 9 2001", "%B %d %Y");
	show("2024-13-01", "%Y-%m-%d");
	show("noon", "%H");

	std::ostringstream os;
	os << "records: " << 3;
	std::string copy = os.str(); // str() const &
	std::cout << copy << " | view " << os.view() << "\n";
	std::istringstream is(std::string("alpha beta"));
	std::string word;
	is >> word;
	std::cout << "read " << word << ", stream holds \"" << is.view() << "\"\n";
	std::stringstream ss(std::string("moved in"), std::ios::in | std::ios::out | std::ios::ate);
	ss << " and appended";
	std::string out = std::move(ss).str(); // str() &&
	std::cout << out << " (" << out.size() << ")\n";
	ss.str(std::string("replaced"));
	std::cout << ss.str() << "\n";
	return 0;
}
