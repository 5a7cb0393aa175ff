// The non-template core of libstdc++'s locales and stream bases, written
// for augur: the "C" locale only, with the facets streams use (ctype<char>,
// numpunct<char>, num_put<char>, num_get<char>, and for file streams
// codecvt<char, char, mbstate_t>, in fstream.cc), collate<char> (for
// std::regex), and ios_base. The facets'
// own behavior (number formatting, padding, grouping) is libstdc++'s
// template code, instantiated in iostream.cc, so output matches a native
// build's byte for byte.
#include <cctype>
#include <cstdlib>
#include <cstring>
#include <ios>
#include <locale>
#include <ostream>

extern "C" {
// The C library's per-thread locale switch, which libstdc++ calls around
// vsnprintf; augur's C library has the "C" locale only.
__locale_t __uselocale(__locale_t l) { return l; }
// strptime's last step (runtime/libc/text.c), which time_get's shares.
void __augur_fill_days(tm *t, int haveWday, int haveYday, int haveMon, int haveMday);
}

namespace std _GLIBCXX_VISIBILITY(default) {

// locale::id numbers facet kinds as they are first used; iostream.cc
// numbers the standard ones before main, so no two threads ever race here.
_Atomic_word locale::id::_S_refcount;
size_t locale::id::_M_id() const throw() {
	// Threads may number a facet kind at once, as libstdc++'s do: the
	// first to store an index wins and every thread returns that one.
	size_t index = __atomic_load_n(&_M_index, __ATOMIC_ACQUIRE);
	if (!index) {
		size_t mine = 1 + __atomic_fetch_add(&_S_refcount, 1, __ATOMIC_RELAXED);
		if (__atomic_compare_exchange_n(&_M_index, &index, mine, false, __ATOMIC_ACQ_REL, __ATOMIC_ACQUIRE))
			index = mine;
	}
	return index - 1;
}

locale::facet::~facet() {}
__c_locale locale::facet::_S_get_c_locale() { return nullptr; }
const char *locale::facet::_S_get_c_name() throw() { return "C"; }

// The one locale: "C", built on first use (before main, by ios_base::Init).
static const size_t facetSlots = 64;

locale::_Impl::_Impl(size_t refs) throw()
    : _M_refcount(refs), _M_facets(new const facet *[facetSlots]()), _M_facets_size(facetSlots),
      _M_caches(new const facet *[facetSlots]()), _M_names(new char *[_S_categories_size]()) {
	for (size_t i = 0; i < _S_categories_size; i++)
		_M_names[i] = strcpy(new char[2], "C");
	// Facets with a reference of their own: never destroyed.
	_M_install_facet(&std::ctype<char>::id, new std::ctype<char>(nullptr, false, 1));
	_M_install_facet(&std::numpunct<char>::id, new std::numpunct<char>(1));
	_M_install_facet(&std::num_put<char>::id, new std::num_put<char>(1));
	_M_install_facet(&std::num_get<char>::id, new std::num_get<char>(1));
	_M_install_facet(&std::codecvt<char, char, mbstate_t>::id, new std::codecvt<char, char, mbstate_t>(1));
	_M_install_facet(&std::__cxx11::collate<char>::id, new std::__cxx11::collate<char>(1));
	_M_install_facet(&std::__timepunct<char>::id, new std::__timepunct<char>(1));
	_M_install_facet(&std::time_put<char>::id, new std::time_put<char>(1));
}

void locale::facet::_S_destroy_c_locale(__c_locale &) {}

// __timepunct<char> holds the "C" locale's names of days, months and
// formats for time_put (std::put_time) and time_get; formatting is
// strftime's, as libstdc++'s own.
template <> void __timepunct<char>::_M_put(char *s, size_t maxlen, const char *format, const tm *t) const throw() {
	if (strftime(s, maxlen, format, t) == 0 && maxlen > 0)
		s[0] = '\0';
}
template <> void __timepunct<char>::_M_initialize_timepunct(__c_locale) {
	if (!_M_data)
		_M_data = new __timepunct_cache<char>;
	__timepunct_cache<char> *d = _M_data;
	d->_M_date_format = d->_M_date_era_format = "%m/%d/%y";
	d->_M_time_format = d->_M_time_era_format = "%H:%M:%S";
	// Empty, as libstdc++'s "C" locale has it: time_get's %c reads nothing
	// (put_time's %c is strftime's, which has its own).
	d->_M_date_time_format = d->_M_date_time_era_format = "";
	d->_M_am = "AM";
	d->_M_pm = "PM";
	d->_M_am_pm_format = "%I:%M:%S %p";
	using C = __timepunct_cache<char>;
	static const char *C::*const day[] = {&C::_M_day1, &C::_M_day2, &C::_M_day3, &C::_M_day4,
	                                      &C::_M_day5, &C::_M_day6, &C::_M_day7};
	static const char *C::*const aday[] = {&C::_M_aday1, &C::_M_aday2, &C::_M_aday3, &C::_M_aday4,
	                                       &C::_M_aday5, &C::_M_aday6, &C::_M_aday7};
	static const char *C::*const month[] = {&C::_M_month01, &C::_M_month02, &C::_M_month03, &C::_M_month04,
	                                        &C::_M_month05, &C::_M_month06, &C::_M_month07, &C::_M_month08,
	                                        &C::_M_month09, &C::_M_month10, &C::_M_month11, &C::_M_month12};
	static const char *C::*const amonth[] = {&C::_M_amonth01, &C::_M_amonth02, &C::_M_amonth03, &C::_M_amonth04,
	                                         &C::_M_amonth05, &C::_M_amonth06, &C::_M_amonth07, &C::_M_amonth08,
	                                         &C::_M_amonth09, &C::_M_amonth10, &C::_M_amonth11, &C::_M_amonth12};
	static const char *const days[] = {"Sunday", "Monday", "Tuesday", "Wednesday", "Thursday", "Friday", "Saturday"};
	static const char *const adays[] = {"Sun", "Mon", "Tue", "Wed", "Thu", "Fri", "Sat"};
	static const char *const months[] = {"January", "February", "March",     "April",   "May",      "June",
	                                     "July",    "August",   "September", "October", "November", "December"};
	static const char *const amonths[] = {"Jan", "Feb", "Mar", "Apr", "May", "Jun",
	                                      "Jul", "Aug", "Sep", "Oct", "Nov", "Dec"};
	for (int i = 0; i < 7; i++) {
		d->*day[i] = days[i];
		d->*aday[i] = adays[i];
	}
	for (int i = 0; i < 12; i++) {
		d->*month[i] = months[i];
		d->*amonth[i] = amonths[i];
	}
}

// __time_get_state::_M_finalize_state is time_get's last step (std::get_time):
// the hour of a 12-hour clock in the afternoon, the year of a century
// (%C, with or without the last two digits, %y), the days the C
// library's strptime fills in, and a date from a week number (%U, weeks
// from the first Sunday; %W, from the first Monday) and a weekday.
void __time_get_state::_M_finalize_state(tm *t) {
	if (_M_have_I && _M_is_pm)
		t->tm_hour += 12;
	if (_M_have_century)
		t->tm_year = (_M_want_century ? t->tm_year % 100 : 0) + (_M_century - 19) * 100;
	if (_M_want_xday)
		__augur_fill_days(t, _M_have_wday, _M_have_yday, _M_have_mon, _M_have_mday);
	if (!(_M_have_uweek || _M_have_wweek) || !_M_have_wday)
		return;
	int first = _M_have_uweek ? 0 : 1; // the weekday weeks start on
	tm jan1 = *t;
	jan1.tm_mon = 0;
	jan1.tm_mday = 1;
	__augur_fill_days(&jan1, 0, 1, 1, 1); // its weekday only
	int start = (7 - (jan1.tm_wday - first)) % 7; // the day of the year week 1 starts
	if (!_M_have_yday)
		t->tm_yday = start + (_M_week_no - 1) * 7 + (t->tm_wday - first + 7) % 7;
	if (!_M_have_mon || !_M_have_mday) {
		tm date = *t;
		__augur_fill_days(&date, 0, 1, 0, 0); // month and day from the day of the year
		if (!_M_have_mon)
			t->tm_mon = date.tm_mon;
		if (!_M_have_mday)
			t->tm_mday = date.tm_mday;
	}
}

// collate<char> in the "C" locale compares and transforms bytes as they
// are, as strcoll and strxfrm do there.
template <> int __cxx11::collate<char>::_M_compare(const char *a, const char *b) const throw() {
	int r = strcmp(a, b);
	return (r > 0) - (r < 0);
}
template <> size_t __cxx11::collate<char>::_M_transform(char *to, const char *from, size_t n) const throw() {
	size_t len = strlen(from);
	if (len < n)
		memcpy(to, from, len + 1);
	return len;
}

// A copy of another locale's implementation, for a locale that differs
// from it in a facet: locale(other, new F), which the header builds
// through this and _M_install_facet. The facets and caches are shared,
// each with a reference more; the names are the copy's own, since that
// constructor names the copy "*" by deleting its first name.
locale::_Impl::_Impl(const _Impl &other, size_t refs)
    : _M_refcount(refs), _M_facets(new const facet *[other._M_facets_size]()), _M_facets_size(other._M_facets_size),
      _M_caches(new const facet *[other._M_facets_size]()), _M_names(new char *[_S_categories_size]()) {
	for (size_t i = 0; i < _M_facets_size; i++) {
		if ((_M_facets[i] = other._M_facets[i]))
			_M_facets[i]->_M_add_reference();
		if ((_M_caches[i] = other._M_caches[i]))
			_M_caches[i]->_M_add_reference();
	}
	for (size_t i = 0; i < _S_categories_size; i++)
		if (other._M_names[i])
			_M_names[i] = strcpy(new char[strlen(other._M_names[i]) + 1], other._M_names[i]);
}

locale::_Impl::~_Impl() throw() {
	for (size_t i = 0; i < _M_facets_size; i++) {
		if (_M_facets[i])
			_M_facets[i]->_M_remove_reference();
		if (_M_caches[i])
			_M_caches[i]->_M_remove_reference();
	}
	for (size_t i = 0; i < _S_categories_size; i++)
		delete[] _M_names[i];
	delete[] _M_facets;
	delete[] _M_caches;
	delete[] _M_names;
}

// _M_install_facet puts f in id's slot, in place of the facet there,
// whose cache (numpunct's punctuation, say) goes with it.
void locale::_Impl::_M_install_facet(const locale::id *id, const facet *f) {
	size_t i = id->_M_id();
	if (i >= _M_facets_size || !f)
		return;
	f->_M_add_reference();
	if (const facet *old = _M_facets[i])
		old->_M_remove_reference();
	_M_facets[i] = f;
	if (const facet *cache = _M_caches[i]) {
		cache->_M_remove_reference();
		_M_caches[i] = nullptr;
	}
}

void locale::_Impl::_M_install_cache(const facet *cache, size_t index) {
	if (index < _M_facets_size && !_M_caches[index]) {
		cache->_M_add_reference();
		_M_caches[index] = cache;
	} else {
		delete cache;
	}
}

// The global locale (locale::global), the classic one until a program
// sets another. A relaxed atomic, not libstdc++'s mutex: a lock in every
// locale's construction would order, to the race detector, every two
// threads that make a stream.
static locale::_Impl *globalImpl;

locale::locale() throw() {
	_Impl *g = __atomic_load_n(&globalImpl, __ATOMIC_RELAXED);
	_M_impl = g ? g : classic()._M_impl;
	_M_impl->_M_add_reference();
	// Number formatting caches the punctuation on first use; filled here,
	// once, so threads that format their first numbers together do not
	// race to install it (libstdc++'s install is atomic, but the headers
	// read the cache without synchronization).
	static const bool warmed = (__use_cache<__numpunct_cache<char>>()(*this), true);
	(void)warmed;
}
locale::locale(const locale &other) throw() : _M_impl(other._M_impl) { _M_impl->_M_add_reference(); }
locale::~locale() throw() { _M_impl->_M_remove_reference(); }
const locale &locale::operator=(const locale &other) throw() {
	other._M_impl->_M_add_reference();
	_M_impl->_M_remove_reference();
	_M_impl = other._M_impl;
	return *this;
}
// classic is the "C" locale, built once even when the first streams are
// made by two threads at once (a program with file streams and no
// <iostream>).
const locale &locale::classic() {
	static locale *c = new locale(new _Impl(1));
	return *c;
}
locale::locale(_Impl *impl) throw() : _M_impl(impl) { _M_impl->_M_add_reference(); }

// named is the locale a name selects: augur's C++ locales are the "C"
// locale only, which "" (natively the environment's, C.UTF-8, which
// setlocale selects for the C functions) and "POSIX" also select.
// Another name throws what libstdc++ throws for a locale the system does
// not have.
static const locale &named(const char *name) {
	if (!name)
		__throw_runtime_error("locale::locale null not valid");
	if (*name && strcmp(name, "C") != 0 && strcmp(name, "POSIX") != 0)
		__throw_runtime_error("locale::facet::_S_create_c_locale name not valid");
	return locale::classic();
}

locale::locale(const char *name) : locale(named(name)) {}

// A locale of base with the categories cats of other: a copy of base with
// other's facets of those categories (ctype and codecvt; numpunct,
// num_put and num_get; collate; the time facets), unnamed ("*") if other
// is. Monetary and messages have no facets here.
locale::locale(const locale &base, const locale &other, category cats) : _M_impl(new _Impl(*base._M_impl, 1)) {
	static const locale::id *const byCategory[][3] = {
	    {&std::ctype<char>::id, &std::codecvt<char, char, mbstate_t>::id},
	    {&std::numpunct<char>::id, &std::num_put<char>::id, &std::num_get<char>::id},
	    {&std::__cxx11::collate<char>::id},
	    {&std::__timepunct<char>::id, &std::time_put<char>::id},
	};
	static const category cat[] = {ctype, numeric, collate, time};
	for (size_t k = 0; k < sizeof cat / sizeof cat[0]; k++) {
		if (!(cats & cat[k]))
			continue;
		for (const locale::id *id : byCategory[k])
			if (id && id->_M_id() < other._M_impl->_M_facets_size)
				if (const facet *f = other._M_impl->_M_facets[id->_M_id()])
					_M_impl->_M_install_facet(id, f);
	}
	if (!other._M_impl->_M_names[0] && _M_impl->_M_names[0]) {
		delete[] _M_impl->_M_names[0];
		_M_impl->_M_names[0] = nullptr;
	}
}

// A locale of base with the categories cats of the named one (which is
// "C": named).
locale::locale(const locale &base, const char *name, category cats) : locale(base, locale(name), cats) {}

locale locale::global(const locale &loc) {
	loc._M_impl->_M_add_reference();
	_Impl *old = __atomic_exchange_n(&globalImpl, loc._M_impl, __ATOMIC_RELAXED);
	locale prev(old ? old : classic()._M_impl);
	if (old)
		old->_M_remove_reference(); // the reference global held
	return prev;
}

// name is "C", or "*" for a locale a program installed a facet in.
string locale::name() const {
	const char *n = _M_impl->_M_names[0];
	return n ? n : "*";
}
bool locale::operator==(const locale &other) const throw() { return _M_impl == other._M_impl; }

// ctype<char> classifies with the C library's table, as glibc's does.
locale::id ctype<char>::id;
const size_t ctype<char>::table_size;
const ctype_base::mask *ctype<char>::classic_table() throw() { return *__ctype_b_loc(); }

ctype<char>::ctype(const mask *table, bool del, size_t refs)
    : facet(refs), _M_c_locale_ctype(nullptr), _M_del(table != nullptr && del), _M_toupper(nullptr),
      _M_tolower(nullptr), _M_table(table ? table : classic_table()), _M_widen_ok(0), _M_narrow_ok(0) {
	// Filled now rather than on first use, so that threads sharing the
	// facet never race to fill them.
	_M_widen_init();
	_M_narrow_init();
}

ctype<char>::ctype(__c_locale, const mask *table, bool del, size_t refs) : ctype(table, del, refs) {}

ctype<char>::~ctype() {
	if (_M_del)
		delete[] _M_table;
}

char ctype<char>::do_toupper(char c) const { return (char)::toupper((unsigned char)c); }
char ctype<char>::do_tolower(char c) const { return (char)::tolower((unsigned char)c); }
const char *ctype<char>::do_toupper(char *lo, const char *hi) const {
	for (; lo < hi; ++lo)
		*lo = do_toupper(*lo);
	return hi;
}
const char *ctype<char>::do_tolower(char *lo, const char *hi) const {
	for (; lo < hi; ++lo)
		*lo = do_tolower(*lo);
	return hi;
}

void ctype<char>::_M_widen_init() const {
	for (size_t i = 0; i < sizeof _M_widen; ++i)
		_M_widen[i] = (char)i;
	_M_widen_ok = 1; // do_widen is the identity: widen may use the table
}

void ctype<char>::_M_narrow_init() const {
	for (size_t i = 0; i < sizeof _M_narrow; ++i)
		_M_narrow[i] = (char)i;
	_M_narrow_ok = 1;
}

// numpunct<char> of the "C" locale: '.', no grouping, "true"/"false".
inline namespace __cxx11 {
template <> void numpunct<char>::_M_initialize_numpunct(__c_locale) {
	if (!_M_data)
		_M_data = new __numpunct_cache<char>;
	_M_data->_M_grouping = "";
	_M_data->_M_grouping_size = 0;
	_M_data->_M_use_grouping = false;
	_M_data->_M_decimal_point = '.';
	_M_data->_M_thousands_sep = ',';
	for (size_t i = 0; i < __num_base::_S_oend; ++i)
		_M_data->_M_atoms_out[i] = __num_base::_S_atoms_out[i];
	for (size_t i = 0; i < __num_base::_S_iend; ++i)
		_M_data->_M_atoms_in[i] = __num_base::_S_atoms_in[i];
	_M_data->_M_truename = "true";
	_M_data->_M_truename_size = 4;
	_M_data->_M_falsename = "false";
	_M_data->_M_falsename_size = 5;
}

template <> numpunct<char>::~numpunct() { delete _M_data; }
} // namespace __cxx11

const char *__num_base::_S_atoms_out = "-+xX0123456789abcdef0123456789ABCDEF";
const char *__num_base::_S_atoms_in = "-+xX0123456789abcdefABCDEF";

// _S_format_float builds the printf conversion a float is formatted with
// from the stream's flags ([facet.num.put.virtuals], table 88).
void __num_base::_S_format_float(const ios_base &io, char *fptr, char mod) throw() {
	ios_base::fmtflags flags = io.flags();
	ios_base::fmtflags field = flags & ios_base::floatfield;
	*fptr++ = '%';
	if (flags & ios_base::showpos)
		*fptr++ = '+';
	if (flags & ios_base::showpoint)
		*fptr++ = '#';
	if (field != (ios_base::fixed | ios_base::scientific)) { // hexfloat has no precision
		*fptr++ = '.';
		*fptr++ = '*';
	}
	if (mod)
		*fptr++ = mod;
	bool upper = flags & ios_base::uppercase;
	if (field == ios_base::fixed)
		*fptr++ = 'f';
	else if (field == ios_base::scientific)
		*fptr++ = upper ? 'E' : 'e';
	else if (field == (ios_base::fixed | ios_base::scientific))
		*fptr++ = upper ? 'A' : 'a';
	else
		*fptr++ = upper ? 'G' : 'g';
	*fptr = '\0';
}

// Conversions num_get uses to read floating-point numbers: strtod and
// friends of the C locale, with libstdc++'s rules for bad and out-of-range
// input (the value 0, or the largest finite value, and failbit).
template <typename T> static void toFloat(const char *s, T &v, ios_base::iostate &err, T (*conv)(const char *, char **),
                                          T huge, T max) {
	char *end;
	T x = conv(s, &end);
	if (end == s || *end != '\0') {
		v = 0;
		err = ios_base::failbit;
	} else if (x == huge || x == -huge) {
		v = x > 0 ? max : -max;
		err = ios_base::failbit;
	} else {
		v = x;
	}
}

template <> void __convert_to_v(const char *s, float &v, ios_base::iostate &err, const __c_locale &) throw() {
	toFloat<float>(s, v, err, strtof, __builtin_huge_valf(), __FLT_MAX__);
}
template <> void __convert_to_v(const char *s, double &v, ios_base::iostate &err, const __c_locale &) throw() {
	toFloat<double>(s, v, err, strtod, __builtin_huge_val(), __DBL_MAX__);
}
template <> void __convert_to_v(const char *s, long double &v, ios_base::iostate &err, const __c_locale &) throw() {
	toFloat<long double>(s, v, err, strtold, __builtin_huge_vall(), __LDBL_MAX__);
}

// The "C" locale has no grouping, so any digits verify.
bool __verify_grouping(const char *, size_t, const string &) throw() { return true; }

// ios_base: the formatting state every stream has.
ios_base::ios_base() throw()
    : _M_callbacks(nullptr), _M_word_zero(), _M_word_size(_S_local_word_size), _M_word(_M_local_word) {}

ios_base::~ios_base() {
	_M_call_callbacks(erase_event);
	_M_dispose_callbacks();
	if (_M_word != _M_local_word)
		delete[] _M_word;
}

void ios_base::_M_init() throw() {
	_M_precision = 6;
	_M_width = 0;
	_M_flags = skipws | dec;
	_M_ios_locale = locale();
}

void ios_base::register_callback(event_callback fn, int index) {
	_M_callbacks = new _Callback_list(fn, index, _M_callbacks);
}

void ios_base::_M_call_callbacks(event ev) throw() {
	for (_Callback_list *p = _M_callbacks; p; p = p->_M_next)
		(*p->_M_fn)(ev, *this, p->_M_index);
}

void ios_base::_M_dispose_callbacks() throw() {
	_Callback_list *p = _M_callbacks;
	while (p && p->_M_remove_reference() == 0) {
		_Callback_list *next = p->_M_next;
		delete p;
		p = next;
	}
	_M_callbacks = nullptr;
}

locale ios_base::imbue(const locale &loc) throw() {
	locale old = _M_ios_locale;
	_M_ios_locale = loc;
	_M_call_callbacks(imbue_event);
	return old;
}

int ios_base::xalloc() throw() {
	static _Atomic_word next = 4; // libstdc++ keeps the first indices
	return __atomic_fetch_add(&next, 1, __ATOMIC_RELAXED);
}

ios_base::_Words &ios_base::_M_grow_words(int ix, bool iword) {
	if (ix < 0 || ix >= 1 << 20) {
		_M_word_zero = _Words();
		_M_streambuf_state |= badbit;
		return _M_word_zero;
	}
	if (ix >= _M_word_size) {
		int size = ix + 1;
		_Words *words = new _Words[size];
		for (int i = 0; i < _M_word_size; i++)
			words[i] = _M_word[i];
		if (_M_word != _M_local_word)
			delete[] _M_word;
		_M_word = words;
		_M_word_size = size;
	}
	(void)iword;
	return _M_word[ix];
}

void ios_base::_M_move(ios_base &rhs) throw() {
	_M_precision = rhs._M_precision;
	_M_width = rhs._M_width;
	_M_flags = rhs._M_flags;
	_M_exception = rhs._M_exception;
	_M_streambuf_state = rhs._M_streambuf_state;
	_M_callbacks = rhs._M_callbacks;
	rhs._M_callbacks = nullptr;
	if (rhs._M_word == rhs._M_local_word) {
		_M_word = _M_local_word;
		_M_word_size = _S_local_word_size;
		for (int i = 0; i < _S_local_word_size; i++)
			_M_local_word[i] = rhs._M_local_word[i];
	} else {
		_M_word = rhs._M_word;
		_M_word_size = rhs._M_word_size;
		rhs._M_word = rhs._M_local_word;
		rhs._M_word_size = _S_local_word_size;
	}
	_M_ios_locale = rhs._M_ios_locale;
}

void ios_base::_M_swap(ios_base &rhs) throw() {
	ios_base tmp;
	tmp._M_move(*this);
	_M_move(rhs);
	rhs._M_move(tmp);
}

} // namespace std
