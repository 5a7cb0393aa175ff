// The floating-point std::to_chars and std::from_chars (what libstdc++.so
// holds for <charconv>), written for augur over the C library's printf
// and strtod. The shortest forms find the fewest digits that read back
// to the same value, as libstdc++'s do: to_chars(first, last, v) chooses
// fixed or scientific, whichever is shorter (fixed on a tie); general
// chooses as %g does with its default precision, 6; a fixed form whose
// digits reach the decimal point prints the exact integer, as %.0f does.
// A long double is held as a double by augur (libc.md), so its forms are
// a double's.
#include <cerrno>
#include <charconv>
#include <cmath>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <strings.h>
#include <type_traits>

namespace std _GLIBCXX_VISIBILITY(default) {

namespace {

// put copies the n characters of s to [first, last).
to_chars_result put(char *first, char *last, const char *s, size_t n) {
	if (size_t(last - first) < n)
		return {last, errc::value_too_large};
	memcpy(first, s, n);
	return {first + n, errc{}};
}

// printed formats v with the conversion c ('f', 'e', 'g' or 'a') at
// precision prec (negative: none) into [first, last), without the "0x"
// of the hexadecimal form.
to_chars_result printed(char *first, char *last, double v, char c, int prec) {
	char spec[8] = "%.*_";
	spec[3] = c;
	if (prec < 0) {
		spec[1] = c;
		spec[2] = 0;
	}
	int n = prec < 0 ? snprintf(nullptr, 0, spec, v) : snprintf(nullptr, 0, spec, prec, v);
	char small[128];
	char *buf = n < int(sizeof small) ? small : static_cast<char *>(malloc(size_t(n) + 1));
	if (prec < 0)
		snprintf(buf, size_t(n) + 1, spec, v);
	else
		snprintf(buf, size_t(n) + 1, spec, prec, v);
	size_t len = size_t(n);
	to_chars_result r;
	if (c == 'a' && isfinite(v) && buf[0] == '-') { // "-0x1p+0": the sign, then what follows "0x"
		r = put(first, last, "-", 1);
		if (r.ec == errc{})
			r = put(r.ptr, last, buf + 3, len - 3);
	} else if (c == 'a' && isfinite(v)) {
		r = put(first, last, buf + 2, len - 2);
	} else {
		r = put(first, last, buf, len);
	}
	if (buf != small)
		free(buf);
	return r;
}

// shortest is the fewest significant digits (k) with which %.(k-1)e reads
// back as v, a float when single is set; *exp is v's decimal exponent in
// that form.
int shortest(double v, bool single, int *exp) {
	char buf[64];
	int most = single ? 9 : 17;
	for (int k = 1; k <= most; k++) {
		snprintf(buf, sizeof buf, "%.*e", k - 1, v);
		bool same = single ? strtof(buf, nullptr) == float(v) : strtod(buf, nullptr) == v;
		if (same || k == most) {
			*exp = atoi(strchr(buf, 'e') + 1);
			return k;
		}
	}
	return most;
}

// fixedShortest is the fixed form with the shortest digits.
to_chars_result fixedShortest(char *first, char *last, double v, int k, int x) {
	return printed(first, last, v, 'f', x >= k - 1 ? 0 : k - 1 - x);
}

to_chars_result toChars(char *first, char *last, double v, bool single, chars_format fmt, bool plain) {
	if (!isfinite(v))
		return printed(first, last, v, 'f', -1); // inf, -inf, nan, -nan
	if (fmt == chars_format::hex)
		return printed(first, last, v, 'a', -1);
	int x = 0;
	int k = v == 0 ? 1 : shortest(v, single, &x);
	if (plain) {
		char f[400], e[64];
		to_chars_result rf = fixedShortest(f, f + sizeof f, v, k, x);
		to_chars_result re = printed(e, e + sizeof e, v, 'e', k - 1);
		if (rf.ec == errc{} && rf.ptr - f <= re.ptr - e)
			return put(first, last, f, size_t(rf.ptr - f));
		return put(first, last, e, size_t(re.ptr - e));
	}
	switch (fmt) {
	case chars_format::fixed:
		return fixedShortest(first, last, v, k, x);
	case chars_format::scientific:
		return printed(first, last, v, 'e', k - 1);
	default: // general: %g's choice with its default precision, the digits shortest
		if (x >= -4 && x < 6)
			return fixedShortest(first, last, v, k, x);
		return printed(first, last, v, 'e', k - 1);
	}
}

char conversion(chars_format fmt) {
	switch (fmt) {
	case chars_format::fixed:
		return 'f';
	case chars_format::scientific:
		return 'e';
	case chars_format::hex:
		return 'a';
	default:
		return 'g';
	}
}

to_chars_result toCharsPrecision(char *first, char *last, double v, chars_format fmt, int prec) {
	if (!isfinite(v))
		return printed(first, last, v, 'f', -1);
	return printed(first, last, v, conversion(fmt), prec < 0 ? 6 : prec);
}

bool isDigit(char c, bool hex) {
	return (c >= '0' && c <= '9') || (hex && ((c >= 'a' && c <= 'f') || (c >= 'A' && c <= 'F')));
}

// number is how many characters of [p, end) make a number in format fmt:
// a sign, digits with at most one point, and an exponent where fmt allows
// one (required by scientific); 0 when there is none.
size_t number(const char *p, const char *end, chars_format fmt) {
	bool hex = fmt == chars_format::hex;
	const char *s = p;
	if (s < end && *s == '-')
		s++;
	size_t digits = 0;
	while (s < end && isDigit(*s, hex))
		s++, digits++;
	if (s < end && *s == '.') {
		s++;
		while (s < end && isDigit(*s, hex))
			s++, digits++;
	}
	if (digits == 0)
		return 0;
	char mark = hex ? 'p' : 'e';
	bool withExp = hex || fmt != chars_format::fixed;
	if (withExp && s < end && (*s == mark || *s == mark - 32)) {
		const char *e = s + 1;
		if (e < end && (*e == '+' || *e == '-'))
			e++;
		if (e < end && *e >= '0' && *e <= '9') {
			while (e < end && *e >= '0' && *e <= '9')
				e++;
			return size_t(e - p);
		}
	}
	if (fmt == chars_format::scientific)
		return 0;
	return size_t(s - p);
}

// special is how many characters of [p, end) spell inf, infinity or nan
// (with a sign, any case, a nan's parenthesized characters); 0 if none.
size_t special(const char *p, const char *end) {
	const char *s = p;
	if (s < end && *s == '-')
		s++;
	auto word = [&](const char *w) {
		size_t n = strlen(w);
		return size_t(end - s) >= n && strncasecmp(s, w, n) == 0 ? n : 0;
	};
	if (size_t n = word("infinity"))
		return size_t(s - p) + n;
	if (size_t n = word("inf"))
		return size_t(s - p) + n;
	if (size_t n = word("nan")) {
		const char *q = s + n;
		if (q < end && *q == '(') {
			const char *r = q + 1;
			while (r < end && (isDigit(*r, false) || (*r >= 'a' && *r <= 'z') || (*r >= 'A' && *r <= 'Z') || *r == '_'))
				r++;
			if (r < end && *r == ')')
				q = r + 1;
		}
		return size_t(q - p);
	}
	return 0;
}

// fromChars reads [first, last) in format fmt into v, as libstdc++ does:
// no leading space or plus sign, the hexadecimal form without "0x", and
// v unchanged when the text is no number or out of T's range.
template <typename T> from_chars_result fromChars(const char *first, const char *last, T &v, chars_format fmt) {
	bool hex = fmt == chars_format::hex;
	size_t n = special(first, last);
	if (n > 0)
		hex = false;
	else
		n = number(first, last, fmt);
	if (n == 0)
		return {first, errc::invalid_argument};
	char small[128];
	char *buf = n + 3 <= sizeof small ? small : static_cast<char *>(malloc(n + 3));
	size_t at = 0, from = 0;
	if (hex) { // strtod reads the hexadecimal form after "0x"
		if (first[0] == '-')
			buf[at++] = '-', from = 1;
		buf[at++] = '0', buf[at++] = 'x';
	}
	memcpy(buf + at, first + from, n - from);
	buf[at + n - from] = 0;
	errno = 0;
	double d = is_same<T, float>::value ? double(strtof(buf, nullptr)) : strtod(buf, nullptr);
	bool range = errno == ERANGE && (d == 0 || isinf(d));
	if (buf != small)
		free(buf);
	if (range)
		return {first + n, errc::result_out_of_range};
	v = T(d);
	return {first + n, errc{}};
}

} // namespace

#define AUGUR_TO_CHARS(T, SINGLE)                                                                               \
	to_chars_result to_chars(char *first, char *last, T value) noexcept {                                   \
		return toChars(first, last, double(value), SINGLE, chars_format::general, true);                \
	}                                                                                                       \
	to_chars_result to_chars(char *first, char *last, T value, chars_format fmt) noexcept {                 \
		return toChars(first, last, double(value), SINGLE, fmt, false);                                 \
	}                                                                                                       \
	to_chars_result to_chars(char *first, char *last, T value, chars_format fmt, int precision) noexcept {   \
		return toCharsPrecision(first, last, double(value), fmt, precision);                            \
	}                                                                                                       \
	from_chars_result from_chars(const char *first, const char *last, T &value, chars_format fmt) noexcept { \
		return fromChars(first, last, value, fmt);                                                      \
	}

AUGUR_TO_CHARS(float, true)
AUGUR_TO_CHARS(double, false)
AUGUR_TO_CHARS(long double, false)

} // namespace std
