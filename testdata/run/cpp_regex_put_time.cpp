// std::regex (whose traits use the collate<char> facet for ranges) and
// std::put_time (the time_put<char> facet), as a log parser has them.
#include <ctime>
#include <iomanip>
#include <iostream>
#include <regex>
#include <sstream>
#include <string>

int main() {
	const std::string log = "GET /a 200 12ms\nPOST /b/c 404 7ms\nbad line\nGET /d 500 130ms\n";
	const std::regex line(R"(([A-Z]+) (/[a-z/]*) ([0-9]{3}) ([0-9]+)ms)");
	std::istringstream in(log);
	std::string s;
	int errors = 0, total = 0;
	while (std::getline(in, s)) {
		std::smatch m;
		if (!std::regex_match(s, m, line)) {
			std::cout << "skipped: " << s << "\n";
			continue;
		}
		total += std::stoi(m[4]);
		errors += m[3].str()[0] >= '4';
		std::cout << m[1] << " " << m[2] << " -> " << m[3] << "\n";
	}
	std::cout << std::regex_replace(log.substr(0, 15), std::regex("[0-9]+"), "#") << "\n";
	std::cout << "errors " << errors << ", total " << total << "ms, has POST "
	          << std::regex_search(log, std::regex("^POST", std::regex::multiline)) << "\n";
	std::tm t{};
	t.tm_year = 126, t.tm_mon = 11, t.tm_mday = 6, t.tm_hour = 7, t.tm_min = 5, t.tm_wday = 0;
	std::cout << std::put_time(&t, "%Y-%m-%d %H:%M (%a %b, %A %B)") << "\n";
	std::ostringstream os;
	os << std::put_time(&t, "%D %T %p");
	std::cout << os.str() << "\n";
	return 0;
}
