// Locales as programs use them with augur's one "C" locale: by name ("C",
// "POSIX"; a name the system lacks throws), with a facet of the program's
// own (a numpunct that groups thousands, installed in a copy), combined by
// category, and as the global locale that streams made later take.
#include <iostream>
#include <locale>
#include <sstream>
#include <stdexcept>
#include <string>

struct Thousands : std::numpunct<char> {
	char do_thousands_sep() const override { return ','; }
	std::string do_grouping() const override { return "\3"; }
	char do_decimal_point() const override { return '.'; }
};

struct Words : std::numpunct<char> {
	std::string do_truename() const override { return "yes"; }
	std::string do_falsename() const override { return "no"; }
};

static std::string show(const std::locale &loc) {
	std::ostringstream out;
	out.imbue(loc);
	out << 1234567 << " " << 9876.5 << " " << std::boolalpha << true;
	return out.str();
}

int main() {
	std::locale c("C"), posix("POSIX");
	std::cout << "names " << c.name() << " " << posix.name() << " " << std::locale::classic().name() << " equal "
	          << (c == std::locale::classic()) << "\n";
	try {
		std::locale bogus("xx_YY.nonexistent");
		std::cout << "bogus " << bogus.name() << "\n";
	} catch (const std::runtime_error &e) {
		std::cout << "bogus: " << e.what() << "\n";
	}
	std::locale grouped(std::locale::classic(), new Thousands);
	std::cout << "grouped " << show(grouped) << " name " << grouped.name() << " has " << std::has_facet<Thousands>(grouped)
	          << std::has_facet<Thousands>(c) << "\n";
	std::locale words(grouped, new Words); // Words replaces Thousands: numpunct is one facet
	std::cout << "words " << show(words) << "\n";
	std::locale numeric(std::locale::classic(), grouped, std::locale::numeric);
	std::locale ctype_only(std::locale::classic(), grouped, std::locale::ctype);
	std::locale back(grouped, "C", std::locale::numeric);
	std::cout << "combined " << show(numeric) << " | " << show(ctype_only) << " | " << show(back) << "\n";
	std::locale old = std::locale::global(grouped);
	std::cout << "global was " << old.name() << ", now " << std::locale().name() << ": " << show(std::locale()) << "\n";
	std::ostringstream later;
	later << 4096000;
	std::cout << "a stream made later " << later.str() << "\n";
	std::locale::global(std::locale::classic());
	std::cout.imbue(grouped);
	std::cout << "cout " << 31415926 << "\n";
	std::cout.imbue(std::locale::classic());
	std::cout << "plain " << 31415926 << "\n";
	return 0;
}
