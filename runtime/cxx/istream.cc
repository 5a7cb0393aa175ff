// The input functions libstdc++ specializes for char in libstdc++.so
// (reading words and lines into strings and arrays, ignore), written for
// augur after the generic algorithms of istream.tcc: same extraction
// rules, character by character.
#include <istream>
#include <limits>
#include <string>

namespace std _GLIBCXX_VISIBILITY(default) {

namespace {
using Traits = char_traits<char>;
const istream::int_type endOfFile = Traits::eof();

bool isSpace(istream &in, istream::int_type c) {
	return use_facet<ctype<char>>(in.getloc()).is(ctype_base::space, Traits::to_char_type(c));
}

// extractWord reads up to max characters that are not white space (the
// sentry has skipped the leading ones), handing each to put. It returns
// how many it read and sets atEnd when the input ended after them.
template <typename Put> size_t extractWord(istream &in, size_t max, bool &atEnd, Put put) {
	size_t n = 0;
	istream::int_type c = in.rdbuf()->sgetc();
	while (n < max && c != endOfFile && !isSpace(in, c)) {
		put(Traits::to_char_type(c));
		++n;
		c = in.rdbuf()->snextc();
	}
	atEnd = c == endOfFile;
	return n;
}

// finish sets the stream's state after an extraction of n characters.
void finish(istream &in, size_t n, ios_base::iostate err) {
	if (!n)
		err |= ios_base::failbit;
	if (err)
		in.setstate(err);
}
} // namespace

// in >> str: skip white space, then read a word (at most width() chars).
template <> istream &operator>>(istream &in, string &str) {
	size_t extracted = 0;
	ios_base::iostate err = ios_base::goodbit;
	istream::sentry ok(in, false);
	if (ok) {
		str.erase();
		streamsize w = in.width();
		bool atEnd;
		extracted = extractWord(in, w > 0 ? size_t(w) : str.max_size(), atEnd, [&str](char ch) { str += ch; });
		if (atEnd)
			err |= ios_base::eofbit;
		in.width(0);
	}
	finish(in, extracted, err);
	return in;
}

// getline(in, str, delim): read up to delim, which is extracted and
// dropped.
template <> istream &getline(istream &in, string &str, char delim) {
	size_t extracted = 0;
	ios_base::iostate err = ios_base::goodbit;
	istream::sentry ok(in, true);
	if (ok) {
		str.erase();
		istream::int_type c = in.rdbuf()->sgetc();
		for (;;) {
			if (c == endOfFile) {
				err |= ios_base::eofbit;
				break;
			}
			if (Traits::eq_int_type(c, Traits::to_int_type(delim))) {
				++extracted;
				in.rdbuf()->sbumpc();
				break;
			}
			if (extracted == str.max_size()) {
				err |= ios_base::failbit;
				break;
			}
			str += Traits::to_char_type(c);
			++extracted;
			c = in.rdbuf()->snextc();
		}
	}
	finish(in, extracted, err);
	return in;
}

// in >> s for a char array of num bytes.
void __istream_extract(istream &in, char *s, streamsize num) {
	streamsize extracted = 0;
	ios_base::iostate err = ios_base::goodbit;
	istream::sentry ok(in, false);
	if (ok) {
		streamsize w = in.width();
		if (0 < w && w < num)
			num = w;
		bool atEnd;
		extracted = extractWord(in, size_t(num - 1), atEnd, [&s](char ch) { *s++ = ch; });
		if (extracted < num - 1 && atEnd)
			err |= ios_base::eofbit;
		*s = 0;
		in.width(0);
	}
	finish(in, size_t(extracted), err);
}

// in.getline(s, n, delim): at most n-1 chars, then the terminator; a full
// buffer without delim sets failbit.
template <> istream &istream::getline(char *s, streamsize n, char delim) {
	_M_gcount = 0;
	ios_base::iostate err = ios_base::goodbit;
	sentry ok(*this, true);
	if (ok) {
		int_type c = rdbuf()->sgetc();
		while (_M_gcount + 1 < n && c != endOfFile && !Traits::eq_int_type(c, Traits::to_int_type(delim))) {
			*s++ = Traits::to_char_type(c);
			++_M_gcount;
			c = rdbuf()->snextc();
		}
		if (c == endOfFile)
			err |= ios_base::eofbit;
		else if (Traits::eq_int_type(c, Traits::to_int_type(delim))) {
			++_M_gcount;
			rdbuf()->sbumpc();
		} else
			err |= ios_base::failbit;
	}
	if (n > 0)
		*s = 0;
	if (!_M_gcount)
		err |= ios_base::failbit;
	if (err)
		setstate(err);
	return *this;
}

// in.ignore(n, delim): skip up to n chars (no limit for the largest
// streamsize), stopping after delim.
template <> istream &istream::ignore(streamsize n, int_type delim) {
	_M_gcount = 0;
	sentry ok(*this, true);
	if (ok && n > 0) {
		ios_base::iostate err = ios_base::goodbit;
		bool unlimited = n == numeric_limits<streamsize>::max();
		int_type c = rdbuf()->sgetc();
		while ((unlimited || _M_gcount < n) && c != endOfFile && !Traits::eq_int_type(c, delim)) {
			++_M_gcount;
			c = rdbuf()->snextc();
		}
		if (c == endOfFile)
			err |= ios_base::eofbit;
		else if ((unlimited || _M_gcount < n) && Traits::eq_int_type(c, delim)) {
			++_M_gcount;
			rdbuf()->sbumpc();
		}
		if (err)
			setstate(err);
	}
	return *this;
}

template <> istream &istream::ignore(streamsize n) { return ignore(n, endOfFile); }

} // namespace std
