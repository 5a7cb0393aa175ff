// time_get<char> (std::get_time), over __timepunct<char>'s names
// (locale.cc, which also finalizes the facet's parse state). A program
// links this file only when it includes the facet's header
// (build.gatedRuntime), so the locales do not hold the facet: use_facet
// finds a program's own in the locale, and otherwise the "C" locale's,
// made at the first use.
//
// The headers declare the facet's instantiation extern, as libstdc++.so
// holds it, and after that declaration a member cannot be specialized;
// so this file turns the library's extern templates off before it
// includes them, and instantiates the facet itself, with get specialized.
#include <bits/c++config.h>
#undef _GLIBCXX_EXTERN_TEMPLATE
#define _GLIBCXX_EXTERN_TEMPLATE 0
#include <locale>
#include <typeinfo>

namespace std _GLIBCXX_VISIBILITY(default) {

// get with a format runs as libstdc++.so's, which GCC builds: one parse state across the
// format's directives, finalized once (locale.cc), so "%I:%M %p" reads
// an afternoon's hour and "%Y %j" a date. The header keeps that state
// only under GCC (it compares member function pointers in a way clang
// does not compile); built by clang, each directive was finalized alone
// and "03:15 PM" read as 03:15. As in libstdc++, a facet that overrides
// do_get gets each directive through its do_get instead; here that is
// any class derived from time_get<char>.
template <>
__cxx11::time_get<char>::iter_type __cxx11::time_get<char>::get(iter_type s, iter_type end, ios_base &io,
                                                                ios_base::iostate &err, tm *t, const char *fmt,
                                                                const char *fmtend) const {
	const ctype<char> &ct = use_facet<ctype<char>>(io._M_getloc());
	err = ios_base::goodbit;
	const bool stateful = typeid(*this) == typeid(__cxx11::time_get<char>);
	__time_get_state state = __time_get_state();
	while (fmt != fmtend && err == ios_base::goodbit) {
		if (s == end) {
			err = ios_base::eofbit | ios_base::failbit;
			break;
		}
		if (ct.narrow(*fmt, 0) == '%') {
			const char *directive = fmt;
			if (++fmt == fmtend) {
				err = ios_base::failbit;
				break;
			}
			char format = ct.narrow(*fmt, 0), mod = 0;
			if (format == 'E' || format == 'O') {
				if (++fmt == fmtend) {
					err = ios_base::failbit;
					break;
				}
				mod = format;
				format = ct.narrow(*fmt, 0);
			}
			if (stateful) {
				const char one[4] = {directive[0], directive[1], mod ? directive[2] : '\0', '\0'};
				s = _M_extract_via_format(s, end, io, err, t, one, state);
				if (s == end)
					err |= ios_base::eofbit;
			} else {
				s = do_get(s, end, io, err, t, format, mod);
			}
			++fmt;
		} else if (ct.is(ctype_base::space, *fmt)) {
			while (fmt != fmtend && ct.is(ctype_base::space, *fmt))
				++fmt;
			while (s != end && ct.is(ctype_base::space, *s))
				++s;
		} else if (ct.tolower(*s) == ct.tolower(*fmt) || ct.toupper(*s) == ct.toupper(*fmt)) {
			++s;
			++fmt;
		} else {
			err = ios_base::failbit;
			break;
		}
	}
	if (stateful)
		state._M_finalize_state(t);
	return s;
}
template class __cxx11::time_get<char>;

template <> const __cxx11::time_get<char> &use_facet<__cxx11::time_get<char>>(const locale &loc) {
	using F = __cxx11::time_get<char>;
	const size_t i = F::id._M_id();
	if (i < loc._M_impl->_M_facets_size)
		if (const F *f = dynamic_cast<const F *>(loc._M_impl->_M_facets[i]))
			return *f;
	static const F *const classic = new F(1); // a reference of its own: never destroyed
	return *classic;
}

template <> bool has_facet<__cxx11::time_get<char>>(const locale &) throw() { return true; }

} // namespace std
