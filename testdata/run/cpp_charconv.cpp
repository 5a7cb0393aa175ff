// cflags: -std=c++17
// A metrics line written and read back with <charconv>, as serializers
// do: every double in its shortest form (which reads back to the same
// value), the fixed, scientific, general and hexadecimal forms with and
// without a precision, a buffer too small, and from_chars on well and
// badly formed text in each format, with the counts it consumed.
#include <charconv>
#include <cmath>
#include <cstdio>
#include <cstring>
#include <initializer_list>
#include <limits>
#include <string>
#include <system_error>

static std::string form(double v, int mode, int prec) {
	char buf[512];
	std::to_chars_result r;
	const std::chars_format fmts[] = {std::chars_format::fixed, std::chars_format::scientific,
	                                  std::chars_format::general, std::chars_format::hex};
	if (mode < 0)
		r = std::to_chars(buf, buf + sizeof buf, v);
	else if (prec < 0)
		r = std::to_chars(buf, buf + sizeof buf, v, fmts[mode]);
	else
		r = std::to_chars(buf, buf + sizeof buf, v, fmts[mode], prec);
	if (r.ec != std::errc())
		return "<error>";
	return std::string(buf, r.ptr);
}

int main() {
	const double samples[] = {0.0, -0.0, 1.0, 100.0, 123456.0, 1234567.0, 0.001, 1e-5, 0.1, 1.0 / 3, -42.5,
	                          2.5e-8, 1e21, 1e23, 6.02214076e23, 9007199254740993.0, 1.7976931348623157e308,
	                          std::numeric_limits<double>::infinity(), -std::numeric_limits<double>::infinity()};
	int roundTrips = 0, n = 0;
	for (double v : samples) {
		std::printf("%s |", form(v, -1, -1).c_str());
		for (int mode = 0; mode < 4; mode++)
			std::printf(" %s", form(v, mode, -1).c_str());
		std::printf(" |");
		for (int mode = 0; mode < 4; mode++)
			std::printf(" %s", form(v, mode, 4).c_str());
		std::printf("\n");
		std::string s = form(v, -1, -1);
		double back = 0;
		auto r = std::from_chars(s.data(), s.data() + s.size(), back);
		n++;
		if (r.ec == std::errc() && back == v && std::signbit(back) == std::signbit(v))
			roundTrips++;
	}
	std::printf("%d of %d read back exactly\n", roundTrips, n);

	float f = 1.0f / 3;
	char small[4];
	auto tight = std::to_chars(small, small + sizeof small, 123456.0);
	char fbuf[32];
	auto fr = std::to_chars(fbuf, fbuf + sizeof fbuf, f);
	std::printf("float %.*s, too small: %s\n", int(fr.ptr - fbuf), fbuf,
	            tight.ec == std::errc::value_too_large ? "value_too_large" : "fits");

	const char *texts[] = {"3.25", " 3.25", "+3.25", "-7.5e2;", "1e999", "INF", "nan", "-nan", "0x1p4",
	                       "1.8p+1", ".25", "8.", "e3", "2e", "ff.8"};
	const std::chars_format fmts[] = {std::chars_format::general, std::chars_format::fixed,
	                                  std::chars_format::scientific, std::chars_format::hex};
	const char *names[] = {"general", "fixed", "scientific", "hex"};
	for (const char *t : texts) {
		std::printf("%-8s", t);
		for (int k = 0; k < 4; k++) {
			if (k == 3 && std::strcmp(t, "-nan") == 0)
				continue; // libstdc++ drops the sign of a NaN read in hex
			double d = -1;
			auto r = std::from_chars(t, t + std::strlen(t), d, fmts[k]);
			const char *ec = r.ec == std::errc() ? "ok" : r.ec == std::errc::invalid_argument ? "invalid" : "range";
			std::printf(" %s:%s/%d/%g", names[k], ec, int(r.ptr - t), d);
		}
		float g = -1;
		auto r = std::from_chars(t, t + std::strlen(t), g);
		std::printf(" float:%d/%g\n", int(r.ptr - t), double(g));
	}
	return 0;
}
