// The library's own exceptions whose classes libstdc++ defines out of line
// (their type_info lives in libstdc++.so): a stream's failure when its
// exceptions() mask asks for one, nested exceptions unwrapped level by
// level, bad_weak_ptr from an expired weak_ptr, regex_error from a pattern
// that does not compile and from a code alone, and a program's own error
// category beside the standard ones, matched through error_condition.
// The output must be native's.
#include <iostream>
#include <memory>
#include <regex>
#include <sstream>
#include <stdexcept>
#include <string>
#include <system_error>

enum class parse_errc { empty = 1, too_long };

struct ParseCategory : std::error_category {
	const char *name() const noexcept override { return "parse"; }
	std::string message(int v) const override { return v == 1 ? "empty input" : "input too long"; }
	std::error_condition default_error_condition(int v) const noexcept override {
		return v == 1 ? std::errc::invalid_argument : std::errc::value_too_large;
	}
};

static const ParseCategory &parse_category() {
	static ParseCategory c;
	return c;
}

namespace std {
template <> struct is_error_code_enum<parse_errc> : true_type {};
} // namespace std

static std::error_code make_error_code(parse_errc e) { return {int(e), parse_category()}; }

static void load(const std::string &text) {
	try {
		if (text.empty())
			throw std::system_error(parse_errc::empty, "load");
		throw std::runtime_error("cannot load " + text);
	} catch (...) {
		std::throw_with_nested(std::logic_error("configuration"));
	}
}

static void unwrap(const std::exception &e, int depth) {
	std::cout << std::string(size_t(depth) * 2, ' ') << e.what() << "\n";
	try {
		std::rethrow_if_nested(e);
	} catch (const std::exception &inner) {
		unwrap(inner, depth + 1);
	}
}

int main() {
	std::istringstream in("12 x");
	in.exceptions(std::ios::failbit | std::ios::badbit);
	int a = 0, b = 0;
	try {
		in >> a >> b;
	} catch (const std::ios_base::failure &f) {
		std::cout << "read " << a << ", then: " << f.what() << " (" << f.code().category().name() << " "
			  << f.code().value() << ", is io_errc::stream: " << (f.code() == std::io_errc::stream) << ")\n";
	}
	for (const char *text : {"", "settings.ini"}) {
		try {
			load(text);
		} catch (const std::exception &e) {
			unwrap(e, 0);
		}
	}
	std::weak_ptr<int> weak;
	{
		auto strong = std::make_shared<int>(1);
		weak = strong;
	}
	try {
		std::shared_ptr<int> again(weak);
	} catch (const std::bad_weak_ptr &e) {
		std::cout << "expired: " << e.what() << "\n";
	}
	for (const char *pattern : {"(ab", "a{2,1}", "[b-a]", "*x"}) {
		try {
			std::regex re(pattern);
			std::cout << pattern << " compiled\n";
		} catch (const std::regex_error &e) {
			std::cout << pattern << ": code " << e.code() << "\n";
		}
	}
	std::regex_error byCode(std::regex_constants::error_backref);
	std::cout << byCode.what() << "\n";
	std::error_code ec = parse_errc::too_long;
	std::cout << ec.category().name() << ": " << ec.message() << ", value_too_large: "
		  << (ec == std::errc::value_too_large) << ", invalid_argument: " << (ec == std::errc::invalid_argument)
		  << ", a category of its own: " << (dynamic_cast<const ParseCategory *>(&ec.category()) != nullptr) << "\n";
	return 0;
}
